import Geo
import LocationStore

extension SQLiteLocationStore {
    /// See `SQLiteConnection.pruneChangeHistory`.
    public func pruneChangeHistory(keeping: Int64, at version: Int64) throws(StoreError) {
        try db.pruneChangeHistory(keeping: keeping, at: version)
    }

    public func trackedVersion() throws(StoreError) -> Int64 {
        Int64(try db.scalarInt("SELECT version FROM oncue_changes") ?? 0)
    }

    /// Reads the version first and the rows after it: a row committed in between is read too and read again next
    /// time, which applying changes allows (see `StoreChanges`).
    public func changes(since version: Int64, limit: Int) throws(StoreError) -> StoreChanges? {
        let header = try db.statement("SELECT version, tracked_from FROM oncue_changes")
        guard try header.step() else { return nil }
        let (now, trackedFrom) = (header.int64(0), header.int64(1))
        header.reset()
        guard version >= trackedFrom else { return nil }
        let counted = try db.statement(
            """
            SELECT (SELECT count(*) FROM locations INDEXED BY locations_by_change WHERE change_version > ?1)
                + (SELECT count(*) FROM location_tombstones WHERE change_version > ?1)
            """)
        counted.bind(1, version)
        _ = try counted.step()
        let total = counted.int64(0)
        counted.reset()
        guard total <= limit else { return nil }
        let rows = try db.statement(
            """
            SELECT id, network_id, name, address, lat, lon, radius_m, venue_radius_m, city, region, postal_code, opening_hours,
                uncertainty_m
            FROM locations INDEXED BY locations_by_change WHERE change_version > ?1
            """)
        rows.bind(1, version)
        var upserted: [IndexRecord] = []
        while try rows.step() { upserted.append(Self.readIndexRecord(rows, networkId: rows.text(1))) }
        // In id order, as PostGIS answers (sorted here: ORDER BY id would make SQLite read the table in id order).
        upserted.sort { $0.id < $1.id }
        let gone = try db.statement(
            """
            SELECT t.id FROM location_tombstones t
            WHERE t.change_version > ?1 AND NOT EXISTS (SELECT 1 FROM locations l WHERE l.id = t.id) ORDER BY t.id
            """)
        gone.bind(1, version)
        var deleted: [String] = []
        while try gone.step() { deleted.append(gone.text(0)) }
        return StoreChanges(version: now, upserted: upserted, deletedIds: deleted, networks: try networks(counted: false))
    }
}
