/// Which rows an import sends to the geocoder.
package enum GeocodeMode: String, Sendable, CaseIterable, Codable {
    /// Rows without coordinates.
    case missing
    /// Rows without coordinates, and rows whose coordinates are too coarse for a geofence.
    case coarse
    /// Every row with an address; the geocoded point replaces the file's when one is found.
    case all
}

/// Geocoding for one import.
package struct GeocodingOptions: Sendable {
    package var settings: GeocoderSettings
    package var mode: GeocodeMode
    /// Fail the import (nothing written) when the service could not answer for some row, instead of committing the
    /// rows it could place.
    package var requireGeocode: Bool
    /// A geocoded point this far from the file's own coordinates is flagged: one of the two is wrong.
    package var farFromOriginalMeters = 2_000.0
    /// Search for the row's own name at its address first (Nominatim's `amenity`), which finds a mapped shop itself
    /// rather than its building's address point; costs a second request for names the service does not know.
    package var searchByName = true

    package init(settings: GeocoderSettings, mode: GeocodeMode = .missing, requireGeocode: Bool = false) {
        self.settings = settings
        self.mode = mode
        self.requireGeocode = requireGeocode
    }
}
