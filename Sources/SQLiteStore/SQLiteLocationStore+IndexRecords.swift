import Geo
import LocationStore

extension SQLiteLocationStore {
    /// Reads only the columns an index needs. Rows come in insertion order, where one network's
    /// locations mostly follow each other, so the network id string is reused while it repeats.
    public func forEachIndexRecord(batchSize: Int, _ body: ([IndexRecord]) throws -> Void) throws {
        let s = try SQLiteStatement(
            connection: db,
            sql: """
                SELECT id, network_id, name, address, lat, lon, radius_m, venue_radius_m, city, region, postal_code, opening_hours,
                uncertainty_m
                FROM locations ORDER BY rowid
                """)
        var batch: [IndexRecord] = []
        batch.reserveCapacity(max(1, batchSize))
        var lastNetwork = ""
        while try s.step() {
            let network = s.textReusing(1, previous: lastNetwork)
            lastNetwork = network
            batch.append(Self.readIndexRecord(s, networkId: network))
            if batch.count >= batchSize {
                try body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    /// One row of `SELECT id, network_id, name, address, lat, lon, radius_m, venue_radius_m, city, region, postal_code,
    /// opening_hours, uncertainty_m`.
    static func readIndexRecord(_ s: SQLiteStatement, networkId: String) -> IndexRecord {
        IndexRecord(
            id: s.text(0), networkId: networkId, name: s.text(2),
            address: IndexRecord.postalAddress(
                street: s.optionalText(3), city: s.optionalText(8), region: s.optionalText(9), postalCode: s.optionalText(10)),
            coordinate: Coordinate(uncheckedLatitude: s.double(4), longitude: s.double(5)),
            radiusMeters: s.optionalDouble(6), venueRadiusMeters: s.optionalDouble(7), openingHours: s.optionalText(11),
            positionUncertaintyMeters: s.optionalDouble(12))
    }
}
