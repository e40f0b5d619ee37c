import Geo

/// "The `limit` nearest locations within `radiusMeters` of `center`", optionally of some networks only.
public struct NearbyQuery: Sendable, Hashable {
    public var center: Coordinate
    public var radiusMeters: Double
    public var limit: Int
    /// nil = every network.
    public var networks: Set<String>?

    public init(center: Coordinate, radiusMeters: Double = 50_000, limit: Int = 20, networks: Set<String>? = nil) {
        self.center = center
        self.radiusMeters = radiusMeters
        self.limit = limit
        self.networks = networks
    }
}

/// A location with its great-circle distance from the query centre.
public struct NearbyLocation: Sendable, Hashable {
    public var location: Location
    public var distanceMeters: Double

    public init(location: Location, distanceMeters: Double) {
        self.location = location
        self.distanceMeters = distanceMeters
    }
}
