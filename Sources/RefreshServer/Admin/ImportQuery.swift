import ChainImport
import Foundation
import Hummingbird

/// The query parameters of `POST /admin/imports`: the options `ImportOptionTable` says a request takes, parsed by it
/// as `oncue import` parses its flags.
enum ImportQuery {
    /// The server's geocoders, one of which a request names (default: the first).
    struct GeocoderDefaults: Sendable {
        var geocoders: [NamedGeocoder]
        var requestsPerSecond: Double
    }

    /// The options, with the deprecated names they were given by; 400 names the parameter at fault.
    static func parse(_ request: Request, geocoder defaults: GeocoderDefaults) throws -> ImportOptionValues {
        let given = request.uri.queryParameters.map { (name: String($0.key), text: String($0.value)) }
        var values: ImportOptionValues
        do { values = try ImportOptionTable.values(given, from: .request) } catch { throw APIError.badRequest(error) }
        if values.fileName == nil { values.fileName = UploadFileName.fromHeader(request.headers[.contentDisposition]) }
        values.options.geocoding = try geocoding(values.geocoding, defaults: defaults)
        return values
    }

    /// A request's geocoder is one of the server's, by name (default: its first); its rate at most the server's.
    private static func geocoding(_ asked: GeocodingRequest, defaults: GeocoderDefaults) throws -> GeocodingOptions? {
        guard asked.isAsked else {
            if asked.requireGeocode {
                throw APIError.unprocessable("invalid_parameter", "'require_geocode' needs 'geocode'", field: "require_geocode")
            }
            return nil
        }
        let url: URL
        if let named = asked.geocoder {
            guard let chosen = defaults.geocoders.first(where: { $0.name == named }) else {
                let known = defaults.geocoders.map(\.name).joined(separator: ", ")
                // A name the document allows that this server does not have: well-formed, cannot be done (422). A URL
                // does not match the document's pattern and is answered 400.
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
        do { return try asked.options(url: url, maxRequestsPerSecond: defaults.requestsPerSecond) } catch { throw APIError.badRequest(error) }
    }
}

extension APIError {
    /// An import option the table refused, as 400 naming the query parameter.
    static func badRequest(_ refusal: ImportOptionSpec.Refusal) -> APIError {
        let message = "query parameter '\(refusal.option)' \(refusal.reason)"
        return refusal.needsAnother
            ? .unprocessable("invalid_parameter", message, field: refusal.option) : .badRequest("invalid_parameter", message, field: refusal.option)
    }
}
