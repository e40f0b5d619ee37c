import Geo

/// A store, branch or venue that a phone may watch as a circular region.
public struct Location: Sendable, Hashable, Codable {
    /// Stable id, `loc_<network>_<external id>` when imported (see `Location.makeId`).
    public var id: String
    public var networkId: String
    /// The id in the source file (store number, FSCS key, …), unique within the network.
    public var externalId: String
    public var name: String
    public var address: String?
    public var city: String?
    /// State, province or region code as given.
    public var region: String?
    public var postalCode: String?
    public var country: String?
    public var coordinate: Coordinate
    /// An explicit region radius for this location, overriding every policy.
    public var radiusMeters: Double?
    /// For large venues: the radius of a disc with the venue's area (used by the large-area radius policy).
    public var venueRadiusMeters: Double?
    /// The import that last wrote this row.
    public var sourceImportId: Int64?
    /// OpenStreetMap `opening_hours` as the file gave it (read with `OpeningHours`; kept even when not understood).
    public var openingHours: String?
    /// How far (metres) the true place may lie from `coordinate`, as the import measured it: coordinates rounded to
    /// two decimals are ±0.55 km. A region is never smaller than this (`RadiusPolicy`): a tighter fence could sit
    /// where no phone at the store will ever be. Nil for a point as precise as a geofence needs.
    public var positionUncertaintyMeters: Double?

    public init(
        id: String? = nil, networkId: String, externalId: String, name: String, address: String? = nil,
        city: String? = nil, region: String? = nil, postalCode: String? = nil, country: String? = nil,
        coordinate: Coordinate, radiusMeters: Double? = nil, venueRadiusMeters: Double? = nil,
        sourceImportId: Int64? = nil, openingHours: String? = nil, positionUncertaintyMeters: Double? = nil
    ) {
        self.id = id ?? Location.makeId(networkId: networkId, externalId: externalId)
        self.networkId = networkId
        self.externalId = externalId
        self.name = name
        self.address = address
        self.city = city
        self.region = region
        self.postalCode = postalCode
        self.country = country
        self.coordinate = coordinate
        self.radiusMeters = radiusMeters
        self.venueRadiusMeters = venueRadiusMeters
        self.sourceImportId = sourceImportId
        self.openingHours = openingHours
        self.positionUncertaintyMeters = positionUncertaintyMeters
    }

    public static func makeId(networkId: String, externalId: String) -> String {
        "loc_\(networkId)_\(externalId)"
    }

    /// True when every stored field except the import provenance is equal.
    public func sameContent(as other: Location) -> Bool {
        var a = self
        var b = other
        a.sourceImportId = nil
        b.sourceImportId = nil
        return a == b
    }
}

/// What an upsert did to one location.
public enum UpsertOutcome: String, Sendable, Codable {
    case inserted, updated, unchanged
}
