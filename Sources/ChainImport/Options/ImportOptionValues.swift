import Foundation

/// What the options of one import say, before the surface that received them supplies what only it can: the mapping
/// file's content, and the geocoder a name or URL stands for.
package struct ImportOptionValues: Sendable {
    package var options = ImportOptions()
    package var geocoding = GeocodingRequest()
    /// The name recorded in the import log (a request's `file_name`; the command line logs each file's own name).
    package var fileName: String?
    /// Deprecated names the options were given by, for the surface to warn of.
    package var deprecatedNamesUsed: [String] = []

    package init() {}
}

/// The geocoding options as given: which geocoder, which rows, how fast. The surface turns `geocoder` into a URL — the
/// command line takes a URL (or `$ONCUE_GEOCODER`), a request one of the server's names — and calls `options(url:)`.
package struct GeocodingRequest: Sendable, Equatable {
    package var geocoder: String?
    package var mode: GeocodeMode?
    package var requireGeocode = false
    package var searchByName = true
    package var requestsPerSecond: Double?
    package var timeoutSeconds: Double?

    package init() {}

    /// Whether anything asked for geocoding (a geocoder or a mode); `require_geocode` alone is refused by `options`.
    package var isAsked: Bool { geocoder != nil || mode != nil }

    /// The import's geocoding at `url` (nil: no geocoder anywhere), with a request's rate capped at `maxRequestsPerSecond`
    /// (a server's own limit, which a request may lower but not raise).
    package func options(url: URL?, maxRequestsPerSecond: Double? = nil) throws(ImportOptionSpec.Refusal) -> GeocodingOptions? {
        guard let url else {
            if requireGeocode {
                throw ImportOptionTable.requireGeocode.refusal(
                    "needs a geocoder ('\(ImportOptionTable.geocoder.name)' or '\(ImportOptionTable.geocode.name)')")
            }
            if mode != nil { throw ImportOptionTable.geocode.refusal("needs a geocoder, and none is configured") }
            return nil
        }
        var settings = GeocoderSettings(baseURL: url)
        // Unasked, a server's own limit is the rate; asked, the lower of the two.
        let limit = maxRequestsPerSecond ?? .infinity
        settings.requestsPerSecond = min(requestsPerSecond ?? maxRequestsPerSecond ?? ImportOptionTable.defaultGeocoderRequestsPerSecond, limit)
        settings.timeoutSeconds = timeoutSeconds ?? ImportOptionTable.defaultGeocoderTimeoutSeconds
        var options = GeocodingOptions(settings: settings, mode: mode ?? .missing, requireGeocode: requireGeocode)
        options.searchByName = searchByName
        return options
    }
}
