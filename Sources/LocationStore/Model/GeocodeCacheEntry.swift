import Foundation

/// What a geocoding service answered for one address, kept in the store so that a re-import asks nothing again.
///
/// The key is the normalised address (see `ChainImport.AddressQuery.cacheKey`); "not found" is cached too, since
/// asking again would get the same answer and spend the service's rate limit.
public struct GeocodeCacheEntry: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Codable {
        /// A point at street or house level.
        case found
        /// The service knows no place for the address.
        case notFound = "not_found"
        /// The service answered with an area (a city, a postcode) rather than a point a geofence can sit on.
        case area
    }

    public var key: String
    public var status: Status
    public var lat: Double?
    public var lon: Double?
    /// The service's own label of the place it found.
    public var displayName: String?
    /// Nominatim's address rank (30 a house, 26–27 a street, 16 a city).
    public var placeRank: Int?
    public var importance: Double?
    /// ISO 3166-1 alpha-2, lower case, as the service reported it.
    public var countryCode: String?
    /// How far the place may lie from the point: half the diagonal of the matched object's bounding box (a street's
    /// point stands anywhere along it; a house's box is metres across). Nil when the service gave no box.
    public var uncertaintyMeters: Double?
    /// The service's base URL, so that answers of two services are never mixed up.
    public var source: String
    public var fetchedAt: Date

    public init(
        key: String, status: Status, lat: Double? = nil, lon: Double? = nil, displayName: String? = nil,
        placeRank: Int? = nil, importance: Double? = nil, countryCode: String? = nil, uncertaintyMeters: Double? = nil,
        source: String, fetchedAt: Date
    ) {
        self.key = key
        self.status = status
        self.lat = lat
        self.lon = lon
        self.displayName = displayName
        self.placeRank = placeRank
        self.importance = importance
        self.countryCode = countryCode
        self.uncertaintyMeters = uncertaintyMeters
        self.source = source
        self.fetchedAt = fetchedAt
    }
}
