import ArgumentParser
import ChainImport
import Foundation

/// The geocoding options of `oncue import`, declared by `ImportOptionTable` as the others are.
struct GeocoderArguments: ParsableArguments {
    @Option(name: .importOption("geocoder"), help: .importOption("geocoder")) var geocoder: String?
    @Option(name: .importOption("geocode"), help: .importOption("geocode")) var geocode: String?
    @Option(name: .importOption("geocoder_rps"), help: .importOption("geocoder_rps")) var geocoderRps: String?
    @Option(name: .importOption("geocoder_timeout"), help: .importOption("geocoder_timeout")) var geocoderTimeout: String?
    @Flag(name: .importOption("require_geocode"), help: .importOption("require_geocode")) var requireGeocode = false
    @Flag(name: .importOption("geocode_names"), inversion: .prefixedNo, help: .importOption("geocode_names")) var geocodeNames = true

    /// The options given, by their names in the table.
    var given: [(name: String, text: String)] {
        var out: [(name: String, text: String)] = []
        for (name, text) in [("geocoder", geocoder), ("geocode", geocode), ("geocoder_rps", geocoderRps), ("geocoder_timeout", geocoderTimeout)] {
            if let text { out.append((name, text)) }
        }
        if requireGeocode { out.append(("require_geocode", "true")) }
        if !geocodeNames { out.append(("geocode_names", "false")) }
        return out
    }

    /// The geocoding options, or nil when no geocoder is named (flag or environment): on the command line the geocoder
    /// is a URL.
    func options(_ request: GeocodingRequest, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> GeocodingOptions? {
        let named = request.geocoder ?? environment["ONCUE_GEOCODER"].flatMap { $0.isEmpty ? nil : $0 }
        var url: URL?
        if let named {
            guard let parsed = GeocoderSettings.baseURL(named) else {
                throw ValidationError("the geocoder must be an http:// or https:// URL with a host")
            }
            url = parsed
        } else if request.mode != nil || request.requireGeocode {
            throw ValidationError("--geocode and --require-geocode need --geocoder URL (or ONCUE_GEOCODER)")
        }
        do { return try request.options(url: url) } catch { throw error.usageError }
    }
}
