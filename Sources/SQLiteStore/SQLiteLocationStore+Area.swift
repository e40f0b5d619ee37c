import Geo
import LocationStore

extension SQLiteLocationStore {
    /// Through SpatiaLite's R*Tree, box by box (two across the antimeridian), then by great-circle distance.
    public func forEachIndexRecord(
        around center: Coordinate, meters: Double, batchSize: Int, _ body: ([IndexRecord]) throws -> Void
    ) throws {
        let columns = """
            l.id, l.network_id, l.name, l.address, l.lat, l.lon, l.radius_m, l.venue_radius_m, l.city, l.region,
            l.postal_code, l.opening_hours, l.uncertainty_m
            """
        var batch: [IndexRecord] = []
        batch.reserveCapacity(max(1, batchSize))
        var seen = Set<String>()
        let bounds = CircleBounds(center: center, radiusMeters: meters)
        for box in bounds.boxes {
            let s = try rtreeRows(columns, in: box)
            while try s.step() {
                let point = Coordinate(uncheckedLatitude: s.double(4), longitude: s.double(5))
                guard Sphere.distance(center, point) <= meters else { continue }
                let record = Self.readIndexRecord(s, networkId: s.text(1))
                // Boxes split at the antimeridian meet there: a point on ±180° is in both.
                if bounds.boxes.count > 1 && !seen.insert(record.id).inserted { continue }
                batch.append(record)
                if batch.count >= batchSize {
                    try body(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    /// `max()` over the partial indexes of schema 8 (`SQLiteSchema.addRadiusIndexes`): two index lookups.
    public func largestStoredRadius() throws -> Double {
        let located = try db.statement(
            """
            SELECT max(coalesce((SELECT max(radius_m) FROM locations WHERE radius_m IS NOT NULL), 0),
                       coalesce((SELECT max(uncertainty_m) FROM locations WHERE uncertainty_m IS NOT NULL), 0),
                       coalesce((SELECT max(default_radius_m) FROM networks), 0))
            """)
        _ = try located.step()
        return located.double(0)
    }
}
