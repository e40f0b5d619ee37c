import ChainImport
import Foundation
import Hummingbird
import LocationStore

/// The query parameters of `POST /admin/imports`: the options of `oncue import`, in snake_case.
enum ImportQuery {
    static let names: Set<String> = [
        "network", "network_column", "network_name_column", "category", "only_known_networks", "dry_run", "replace",
        "fix_coordinates", "encoding", "delimiter", "file_name", "radius_column", "venue_radius_column", "geocode", "geocoder", "require_geocode",
        "geocode_names", "brand_catalogue",
    ]

    /// The server's geocoder, used when a request asks for geocoding without naming one.
    struct GeocoderDefaults: Sendable {
        var geocoders: [NamedGeocoder]
        var requestsPerSecond: Double
    }

    /// The options and the file name to log; 400 names the parameter at fault.
    static func parse(_ request: Request, geocoder defaults: GeocoderDefaults) throws -> (options: ImportOptions, fileName: String?) {
        let query = request.uri.queryParameters
        for (name, _) in query where !names.contains(String(name)) {
            throw APIError.badRequest("invalid_parameter", "unknown query parameter '\(name.prefix(64))'", field: String(name.prefix(64)))
        }
        var options = ImportOptions()
        options.network = try text(query, "network")
        options.networkColumn = try text(query, "network_column")
        options.networkNameColumn = try text(query, "network_name_column")
        options.category = try text(query, "category")
        options.onlyKnownNetworks = try flag(query, "only_known_networks")
        if query["brand_catalogue"] != nil { options.usesBrandCatalogue = try flag(query, "brand_catalogue") }
        options.dryRun = try flag(query, "dry_run")
        options.replaceNetwork = try flag(query, "replace")
        options.fixCoordinates = try flag(query, "fix_coordinates")
        if let encoding = try text(query, "encoding") {
            guard let value = TextEncoding(name: encoding) else {
                throw APIError.badRequest("invalid_parameter", "unknown encoding '\(encoding.prefix(32))'", field: "encoding")
            }
            options.encoding = value
        }
        if let delimiter = try text(query, "delimiter", allowingTab: true) {
            let byte: UInt8? =
                switch delimiter {
                case ",": UInt8(ascii: ",")
                case ";": UInt8(ascii: ";")
                case "|": UInt8(ascii: "|")
                case "tab", "\t": UInt8(ascii: "\t")
                default: nil
                }
            guard let byte else { throw APIError.badRequest("invalid_parameter", "delimiter must be one of , ; | tab", field: "delimiter") }
            options.delimiter = byte
        }
        options.geocoding = try geocoding(query, defaults: defaults)
        if let column = try text(query, "radius_column") { options.mapColumn(.radius, to: column) }
        if let column = try text(query, "venue_radius_column") { options.mapColumn(.venueRadius, to: column) }
        let fileName = try text(query, "file_name") ?? UploadFileName.fromHeader(request.headers[.contentDisposition])
        return (options, fileName)
    }

    /// `geocode=missing|coarse|all` turns geocoding on, with the server's geocoder `geocoder=NAME` (default: its first).
    private static func geocoding(_ query: Parameters, defaults: GeocoderDefaults) throws -> GeocodingOptions? {
        let modeText = try text(query, "geocode")
        let named = try text(query, "geocoder")
        let require = try flag(query, "require_geocode")
        let names = query[Substring("geocode_names")] == nil ? true : try flag(query, "geocode_names")
        guard modeText != nil || named != nil else {
            if require { throw APIError.unprocessable("invalid_parameter", "'require_geocode' needs 'geocode'", field: "require_geocode") }
            return nil
        }
        let mode =
            try modeText.map { text in
                guard let mode = GeocodeMode(rawValue: text) else {
                    throw APIError.badRequest("invalid_parameter", "'geocode' must be missing, coarse or all", field: "geocode")
                }
                return mode
            } ?? .missing
        let url: URL
        if let named {
            guard let chosen = defaults.geocoders.first(where: { $0.name == named }) else {
                let known = defaults.geocoders.map(\.name).joined(separator: ", ")
                // A name the document allows that this server does not have: well-formed, cannot be done (422). A URL
                // does not match the document's pattern and is answered 400 before this.
                let message =
                    "'geocoder' names one of the server's geocoders (--geocoder NAME=URL)"
                    + (known.isEmpty ? "; it has none" : ": \(known)") + "; a URL is never taken from a request"
                if named.contains(":") || named.contains("/") { throw APIError.badRequest("invalid_parameter", message, field: "geocoder") }
                throw APIError.unprocessable("invalid_parameter", message, field: "geocoder")
            }
            url = chosen.url
        } else if let configured = defaults.geocoders.first?.url {
            url = configured
        } else {
            throw APIError.unprocessable(
                "invalid_parameter", "no geocoder: start the server with --geocoder URL (or NAME=URL, …)", field: "geocoder")
        }
        var settings = GeocoderSettings(baseURL: url)
        settings.requestsPerSecond = defaults.requestsPerSecond
        var options = GeocodingOptions(settings: settings, mode: mode, requireGeocode: require)
        options.searchByName = names
        return options
    }

    /// A text parameter: 1 to 200 characters and, as every name an admin sends, no control characters (they would
    /// reach the log and the store: a newline forges a log line, an escape drives a terminal). The delimiter's own
    /// spelling of tab is the one exception, and it is checked against its list.
    private static func text(_ query: Parameters, _ name: String, allowingTab: Bool = false) throws -> String? {
        guard let value = query[Substring(name)] else { return nil }
        guard !value.isEmpty, !FieldLimits.exceeds(value, 200) else {
            throw APIError.badRequest("invalid_parameter", "query parameter '\(name)' must be 1 to 200 characters", field: name)
        }
        if !(allowingTab && value == "\t"), value.unicodeScalars.contains(where: AdminText.isControl) {
            throw APIError.badRequest("invalid_parameter", "query parameter '\(name)' must not hold control characters", field: name)
        }
        return String(value)
    }

    private static func flag(_ query: Parameters, _ name: String) throws -> Bool {
        guard let value = query[Substring(name)] else { return false }
        switch value.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw APIError.badRequest("invalid_parameter", "query parameter '\(name)' must be true or false", field: name)
        }
    }
}
