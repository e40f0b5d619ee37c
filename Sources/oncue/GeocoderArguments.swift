import ArgumentParser
import ChainImport
import Foundation

/// The geocoding options of `oncue import`.
struct GeocoderArguments: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Nominatim-compatible geocoder base URL (its /search is asked); default $ONCUE_GEOCODER.",
            valueName: "url"))
    var geocoder: String?
    @Option(help: "Rows to geocode when a geocoder is given: missing (no coordinates), coarse (also coordinates too coarse for a geofence), all.")
    var geocode: GeocodeMode?
    @Option(help: "At most this many geocoder requests per second (the public Nominatim allows 1).")
    var geocoderRps: Double = 1
    @Option(help: "Seconds to wait for one geocoder answer.")
    var geocoderTimeout: Double = 10
    @Flag(help: "Import nothing when the geocoder could not answer for some row (default: import the rows it could place).")
    var requireGeocode = false
    @Flag(
        inversion: .prefixedNo,
        help: "Search a row's own name at its address first, finding the shop itself rather than its building's address point.")
    var geocodeNames = true

    /// The geocoding options, or nil when no geocoder is named (flag or environment).
    func options(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> GeocodingOptions? {
        let named = geocoder ?? environment["ONCUE_GEOCODER"].flatMap { $0.isEmpty ? nil : $0 }
        guard let named else {
            if geocode != nil || requireGeocode { throw ValidationError("--geocode and --require-geocode need --geocoder URL (or ONCUE_GEOCODER)") }
            return nil
        }
        guard let url = GeocoderSettings.baseURL(named) else {
            throw ValidationError("the geocoder must be an http:// or https:// URL with a host")
        }
        var settings = GeocoderSettings(baseURL: url)
        guard geocoderRps > 0, geocoderRps.isFinite else { throw ValidationError("--geocoder-rps must be above 0") }
        guard geocoderTimeout > 0, geocoderTimeout.isFinite else { throw ValidationError("--geocoder-timeout must be above 0") }
        settings.requestsPerSecond = geocoderRps
        settings.timeoutSeconds = geocoderTimeout
        var options = GeocodingOptions(settings: settings, mode: geocode ?? .missing, requireGeocode: requireGeocode)
        options.searchByName = geocodeNames
        return options
    }
}

extension GeocodeMode: ExpressibleByArgument {}
