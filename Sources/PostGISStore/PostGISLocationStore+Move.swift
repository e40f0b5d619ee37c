import LocationStore
import PostgresNIO

extension PostGISLocationStore {
    /// UPDATEs in place, in batches for the renamed rows and one statement for the rest. An UPDATE fires no delete
    /// trigger, so the old ids' tombstones are written here, with the transaction's version.
    public func moveLocations(from: String, into: String, dropping: [String], renaming: [String: String]) async throws -> Int {
        try await changing {
            let version = try await noteChange()
            let (lower, upper) = PostGISSchema.networkIdRange(from)
            for start in stride(from: 0, to: dropping.count, by: 10_000) {
                let batch = Array(dropping[start..<min(start + 10_000, dropping.count)])
                // Only `from`'s: ids of a network whose own id holds `_` can fall in another's id range.
                try await query(
                    """
                    DELETE FROM geocoded_locations WHERE location_id IN (
                        SELECT id FROM locations WHERE id = ANY(\(batch)) AND network_id = \(from))
                    """)
                try await query("DELETE FROM locations WHERE id = ANY(\(batch)) AND network_id = \(from)")
            }
            try await query(
                """
                INSERT INTO location_tombstones (id, change_version)
                SELECT id, \(version) FROM locations WHERE id >= \(lower) AND id < \(upper) AND network_id = \(from)
                ON CONFLICT (id) DO UPDATE SET change_version = EXCLUDED.change_version
                """)
            var moved = 0
            let renamed = renaming.sorted { $0.key < $1.key }
            for start in stride(from: 0, to: renamed.count, by: 10_000) {
                let batch = renamed[start..<min(start + 10_000, renamed.count)]
                let old = batch.map(\.key)
                let external = batch.map(\.value)
                let new = external.map { Location.makeId(networkId: into, externalId: $0) }
                try await query(
                    """
                    UPDATE geocoded_locations g SET location_id = u.new_id
                    FROM unnest(\(old)::text[], \(new)::text[]) AS u(old_id, new_id), locations l
                    WHERE g.location_id = u.old_id AND l.id = u.old_id AND l.network_id = \(from)
                    """)
                moved += try await count(
                    """
                    UPDATE locations l SET network_id = \(into), external_id = u.external_id, id = u.new_id, updated_at = now(),
                        change_version = \(version)
                    FROM unnest(\(old)::text[], \(external)::text[], \(new)::text[]) AS u(old_id, external_id, new_id)
                    WHERE l.id = u.old_id AND l.network_id = \(from)
                    """)
            }
            // The rest keep their external id: an id is `loc_<network>_<external id>`, so only its prefix changes.
            let newPrefix = "loc_\(into)_"
            // substr counts code points.
            let cut = lower.unicodeScalars.count + 1
            try await query(
                """
                UPDATE geocoded_locations SET location_id = \(newPrefix) || substr(location_id, \(Int32(cut)))
                WHERE location_id >= \(lower) AND location_id < \(upper) AND location_id IN (
                    SELECT id FROM locations WHERE id >= \(lower) AND id < \(upper) AND network_id = \(from))
                """)
            moved += try await count(
                """
                UPDATE locations SET network_id = \(into), id = \(newPrefix) || external_id, updated_at = now(),
                    change_version = \(version)
                WHERE id >= \(lower) AND id < \(upper) AND network_id = \(from)
                """)
            return moved
        }
    }

    /// The rows a data-changing statement touched, counted by the server (a `RETURNING` of each would ship them all).
    private func count(_ statement: PostgresQuery) async throws -> Int {
        let counted = PostgresQuery(unsafeSQL: "WITH changed AS (\(statement.sql) RETURNING 1) SELECT count(*) FROM changed", binds: statement.binds)
        let rows = try await self.rows(counted)
        return Int(try rows.first?.decode(Int64.self) ?? 0)
    }
}
