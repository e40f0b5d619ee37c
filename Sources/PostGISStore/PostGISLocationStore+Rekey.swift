import Geo
import LocationStore
import PostgresNIO

extension PostGISLocationStore {
    /// Schema version 2: location ids that never depend on a name, as the SQLite store's version 3 (see
    /// `SQLiteSchema.rekeyDerivedIds`). Runs inside the migration's transaction; the id is the key here, so the old id
    /// stands for the row.
    func rekeyDerivedIds() async throws {
        var candidates: [LegacyKeyedLocation] = []
        var ids: [String] = []
        let found = try await query(
            """
            SELECT l.id, l.network_id, l.external_id, l.name, l.address, l.city, l.postal_code, l.lat, l.lon,
                   g.original_lat, g.original_lon, l.source_import_id
            FROM locations l LEFT JOIN geocoded_locations g ON g.location_id = l.id
            WHERE length(l.external_id) = 17 AND l.external_id ~ '^h[0-9a-f]{16}$'
            """)
        for try await row in found {
            let (id, network, external, name, address, city, postal, lat, lon, originalLat, originalLon, source) = try row.decode(
                (String, String, String, String, String?, String?, String?, Double, Double, Double?, Double?, Int64?).self)
            let original = originalLat.flatMap { a in originalLon.map { Coordinate(uncheckedLatitude: a, longitude: $0) } }
            candidates.append(
                LegacyKeyedLocation(
                    rowKey: Int64(ids.count), networkId: network, externalId: external, name: name, address: address, city: city,
                    postalCode: postal, latitude: lat, longitude: lon, original: original, sourceImportId: source))
            ids.append(id)
        }
        let plan = RekeyPlan(candidates)
        let dropped = plan.drops.map { ids[Int($0)] }
        if !dropped.isEmpty {
            try await query("DELETE FROM geocoded_locations WHERE location_id = ANY(\(dropped))")
            try await query("DELETE FROM locations WHERE id = ANY(\(dropped))")
        }
        // In batches: one statement per location would take minutes on a large store.
        for start in stride(from: 0, to: plan.renames.count, by: 10_000) {
            let batch = plan.renames[start..<min(start + 10_000, plan.renames.count)]
            let old = batch.map { ids[Int($0.rowKey)] }
            let external = batch.map(\.externalId)
            let new = batch.map(\.id)
            try await query(
                """
                UPDATE locations l SET external_id = u.external_id, id = u.new_id
                FROM unnest(\(old)::text[], \(external)::text[], \(new)::text[]) AS u(old_id, external_id, new_id)
                WHERE l.id = u.old_id
                """)
            try await query(
                """
                UPDATE geocoded_locations g SET location_id = u.new_id
                FROM unnest(\(old)::text[], \(new)::text[]) AS u(old_id, new_id)
                WHERE g.location_id = u.old_id
                """)
        }
    }
}
