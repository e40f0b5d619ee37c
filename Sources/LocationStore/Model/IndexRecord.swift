import Geo

/// The part of a location an in-memory index needs: what a region shows and how big it is.
public struct IndexRecord: Sendable, Hashable {
    public var id: String
    public var networkId: String
    public var name: String
    public var address: String?
    public var coordinate: Coordinate
    public var radiusMeters: Double?
    public var venueRadiusMeters: Double?
    /// OpenStreetMap `opening_hours`, as stored.
    public var openingHours: String?
    /// `Location.positionUncertaintyMeters`: the region's least radius.
    public var positionUncertaintyMeters: Double?

    public init(
        id: String, networkId: String, name: String, address: String?, coordinate: Coordinate,
        radiusMeters: Double?, venueRadiusMeters: Double?, openingHours: String? = nil, positionUncertaintyMeters: Double? = nil
    ) {
        self.id = id
        self.networkId = networkId
        self.name = name
        self.address = address
        self.coordinate = coordinate
        self.radiusMeters = radiusMeters
        self.venueRadiusMeters = venueRadiusMeters
        self.openingHours = openingHours
        self.positionUncertaintyMeters = positionUncertaintyMeters
    }

    public init(_ l: Location) {
        self.init(
            id: l.id, networkId: l.networkId, name: l.name,
            address: Self.postalAddress(street: l.address, city: l.city, region: l.region, postalCode: l.postalCode),
            coordinate: l.coordinate, radiusMeters: l.radiusMeters, venueRadiusMeters: l.venueRadiusMeters,
            openingHours: l.openingHours, positionUncertaintyMeters: l.positionUncertaintyMeters)
    }

    /// The address a phone shows, as the product document writes it: "450 10th St, San Francisco, CA 94103" — the
    /// street line, the city, and the region with the postal code, each left out when the file had none.
    public static func postalAddress(street: String?, city: String?, region: String?, postalCode: String?) -> String? {
        let tail = [region, postalCode].compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: " ")
        let parts = [street, city, tail].compactMap { $0?.isEmpty == false ? $0 : nil }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}

extension LocationStore {
    /// Every location's index fields, in batches. Stores may override this with a narrower read;
    /// the default reads whole locations.
    public func forEachIndexRecord(batchSize: Int, _ body: ([IndexRecord]) throws -> Void) async throws {
        try await forEachLocation(batchSize: batchSize) { batch in try body(batch.map(IndexRecord.init)) }
    }
}
