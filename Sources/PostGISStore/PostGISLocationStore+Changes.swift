import LocationStore
import PostgresNIO

extension PostGISLocationStore {
    public func trackedVersion() async throws -> Int64 { try await storeVersion() }

    /// Reads the version first and the rows after it: a change committed in between is read too and read again next
    /// time, which applying changes allows (see `StoreChanges`). Versions commit in order (`noteChange`), so nothing
    /// written at or below the version read can appear later.
    public func changes(since version: Int64, limit: Int) async throws -> StoreChanges? {
        guard let header = try await rows("SELECT version, tracked_from FROM oncue_store_version").first else { return nil }
        let (now, trackedFrom) = try header.decode((Int64, Int64).self)
        guard version >= trackedFrom else { return nil }
        let counted = try await rows(
            """
            SELECT (SELECT count(*) FROM locations WHERE change_version > \(version))
                + (SELECT count(*) FROM location_tombstones WHERE change_version > \(version))
            """)
        guard let total = try counted.first?.decode(Int64.self), total <= limit else { return nil }
        var upserted: [IndexRecord] = []
        try await forEachIndexRecord(changedAfter: version, batchSize: 10_000) { upserted.append(contentsOf: $0) }
        let deleted = try await rows(
            """
            SELECT t.id FROM location_tombstones t
            WHERE t.change_version > \(version) AND NOT EXISTS (SELECT 1 FROM locations l WHERE l.id = t.id) ORDER BY t.id
            """
        ).map { try $0.decode(String.self) }
        return StoreChanges(
            version: now, upserted: upserted.sorted { $0.id < $1.id }, deletedIds: deleted, networks: try await networks(counts: .none))
    }
}
