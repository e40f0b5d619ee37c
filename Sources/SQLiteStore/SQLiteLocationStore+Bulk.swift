import Foundation
import Geo
import LocationStore

/// The row-at-a-time write path of the chain importer: it runs inside one caller-held transaction,
/// uses prepared statements only, and keeps its per-import bookkeeping (which ids the import has
/// listed) in a scratch table of the store file itself, so memory stays flat however large the file is.
/// The scratch table is created and dropped inside the import's transaction: a killed import leaves none.
extension SQLiteLocationStore {
    /// Starts the bookkeeping of a bulk import. Call inside `transaction { }`, and `finishBulkImport()` before it commits.
    ///
    /// - Parameters:
    ///   - expectedRows: about how many rows the import will bring, if known (an importer estimates it from the
    ///     file size). An import that inserts at least `deferIndexAfterInserts` rows into a store no larger than
    ///     this drops the geohash index there and then, and builds it again in one sorted pass at the end: inserting
    ///     a million rows in random geohash order into it cost 4.8 s of page-cache misses, building it 1.5 s.
    ///   - deferIndexAfterInserts: how many rows must go in first (so re-imports and small additions keep the index).
    ///
    /// SpatiaLite keeps its spatial index with per-row triggers (a geometry check, an R*Tree delete and
    /// insert, a timestamp update in `geometry_columns_time`); for a million rows they cost more than
    /// everything else together. They are suspended for the import and the R*Tree is brought in step
    /// for the changed rows in one statement at the end. Both happen inside the import's transaction,
    /// so a failed or killed import leaves the triggers, the index and the rows exactly as they were.
    public func beginBulkImport(expectedRows: Int? = nil, deferIndexAfterInserts: Int = 50_000) throws(StoreError) {
        // The bookkeeping goes to the temporary database when that can live in a file: it is written once there,
        // where in the store it went through the WAL and the checkpoint and left free pages behind. With temporary
        // storage in memory (see `configure`) a million seen ids would grow with the file, so then it goes to the store.
        let scratch = try sortToFiles() ? "temp" : "main"
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS \(scratch).oncue_import_seen (id TEXT PRIMARY KEY NOT NULL, line INTEGER NOT NULL) WITHOUT ROWID;
            DELETE FROM \(scratch).oncue_import_seen;
            CREATE TABLE IF NOT EXISTS \(scratch).oncue_import_changed (location_rowid INTEGER PRIMARY KEY);
            DELETE FROM \(scratch).oncue_import_changed;
            """)
        // Reads through the page cache rather than a memory map: an import's probes touch the whole file, and
        // mapped pages count as the process's memory, which would then grow with the store.
        try db.execute("PRAGMA mmap_size = 0")
        // A small import into a large store touches a few pages in every index for each row: through a page cache
        // of a quarter of the usual size, so that a server running it grows by little (its reads come from the
        // system's file cache then).
        if let expectedRows, expectedRows < Self.smallImportRows { try db.execute("PRAGMA cache_size = -\(Self.smallImportCacheKiB)") }
        let largestRowid = try db.scalarInt("SELECT max(ROWID) FROM locations") ?? 0
        var state = BulkImportState(
            firstNewRowid: largestRowid + 1, scratch: scratch, occupied: OccupiedCells(expectedRows: expectedRows),
            statements: try BulkStatements(db: db, scratch: scratch))
        // max(ROWID) is at least the row count: the comparison errs towards keeping the index. The index is built
        // again by a sorter, which must spill to files.
        if let expectedRows, largestRowid <= Int64(expectedRows), scratch == "temp" {
            state.deferIndexAtInsert = max(1, deferIndexAfterInserts)
        }
        let s = try db.statement(
            """
            SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'locations' AND name IN
                ('ggi_locations_geom', 'ggu_locations_geom', 'tmi_locations_geom', 'tmu_locations_geom', 'gii_locations_geom', 'giu_locations_geom')
            """)
        while try s.step() { state.suspendedTriggers.append((s.text(0), s.text(1))) }
        s.reset()
        for (name, _) in state.suspendedTriggers { try db.execute("DROP TRIGGER \"\(name)\"") }
        bulk = state
    }

    /// ROWIDs per statement when the spatial index is brought in step.
    static let reindexSlice: Int64 = 50_000
    /// Up to this many new rows are sorted by geohash on their own rather than read through the geohash index.
    static let sortedNewRowsLimit: Int64 = 100_000

    /// Brings the spatial index in step with the rows the import inserted or updated, restores the
    /// triggers and drops the bookkeeping. Call inside the import's transaction, before it commits.
    public func finishBulkImport() throws(StoreError) {
        guard let state = bulk else { throw .invalidArgument("finishBulkImport without beginBulkImport") }
        // Before the spatial index: both of its paths read the locations in geohash order through this index.
        if state.geohashIndexDropped { try createGeohashIndex() }
        // Inserted rows are those past the largest ROWID before the import; updated ones are in the scratch table.
        let countNew = try db.statement("SELECT count(*) FROM locations WHERE ROWID >= ?1")
        countNew.bind(1, state.firstNewRowid)
        let added = try countNew.step() ? countNew.int64(0) : 0
        countNew.reset()
        // The index's size matters only up to `added`: counted that far, a small import into a large store does not
        // read the whole index.
        let indexed = try db.scalarInt("SELECT count(*) FROM (SELECT 1 FROM idx_locations_geom_rowid LIMIT \(added + 1))") ?? 0
        var changed = 0
        if added >= indexed {
            // At least doubling the index (a first load): one packed pass over every location beats inserting.
            changed = try rebuildSpatialIndexPacked()
        } else {
            changed = try reindexChanged(firstNewRowid: state.firstNewRowid, added: added)
        }
        if changed > 0 && state.suspendedTriggers.contains(where: { $0.name == "tmi_locations_geom" }) {
            try db.execute(
                """
                UPDATE geometry_columns_time SET last_insert = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), last_update = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                WHERE lower(f_table_name) = 'locations' AND lower(f_geometry_column) = 'geom'
                """)
        }
        for (_, sql) in state.suspendedTriggers { try db.execute(sql) }
        try endBulkImport()
    }

    /// Brings the R*Tree in step row by row through the virtual table: for imports small beside the store.
    /// R*Tree boxes of points: SQLite rounds min down and max up to float32, as SpatiaLite's RTreeAlign does.
    /// SQLite materialises the rows of an INSERT into a virtual table first, so updated rows go in ROWID slices:
    /// memory stays flat however many rows the import wrote.
    private func reindexChanged(firstNewRowid: Int64, added: Int64) throws(StoreError) -> Int {
        let reindex = try db.statement(
            """
            DELETE FROM idx_locations_geom WHERE pkid IN (SELECT location_rowid FROM \(scratch).oncue_import_changed)
            """)
        try reindex.step()
        let updated = try db.statement(
            """
            INSERT INTO idx_locations_geom (pkid, xmin, xmax, ymin, ymax)
                SELECT l.ROWID, l.lon, l.lon, l.lat, l.lat FROM \(scratch).oncue_import_changed AS c JOIN locations AS l ON l.ROWID = c.location_rowid
                WHERE c.location_rowid >= ?1 AND c.location_rowid < ?2
            """)
        var changed = 0
        let span = try db.statement("SELECT min(location_rowid), max(location_rowid) FROM \(scratch).oncue_import_changed")
        let bounds = try span.step() && !span.isNull(0) ? (first: span.int64(0), last: span.int64(1)) : nil
        span.reset()
        if let bounds {
            var lower = bounds.first
            while lower <= bounds.last {
                updated.reset()
                updated.bind(1, lower)
                updated.bind(2, lower + Self.reindexSlice)
                try updated.step()
                changed += db.changes
                lower += Self.reindexSlice
            }
        }
        // New rows one by one in geohash order: neighbours on the ground go into the same R*Tree nodes, which
        // stay in cache (in file order, inserting a million points took 3× as long). Many are read in the order of the
        // geohash index; a few are read by ROWID and sorted, since walking that index visits every location.
        let newRows = try db.statement(
            """
            SELECT ROWID, lon, lat FROM locations \(added > Self.sortedNewRowsLimit ? "INDEXED BY locations_by_geohash" : "NOT INDEXED")
            WHERE ROWID >= ?1 ORDER BY geohash
            """)
        let insert = try db.statement("INSERT INTO idx_locations_geom (pkid, xmin, xmax, ymin, ymax) VALUES (?1, ?2, ?2, ?3, ?3)")
        newRows.bind(1, firstNewRowid)
        while try newRows.step() {
            insert.reset()
            insert.bind(1, newRows.int64(0))
            insert.bind(2, newRows.double(1))
            insert.bind(3, newRows.double(2))
            try insert.step()
            changed += 1
        }
        newRows.reset()
        return changed
    }

    /// Moves temporary files to disk for the rest of the transaction, so that the sorter building the geohash index
    /// spills there: with `temp_store = MEMORY` (see `configure`) its runs would stay in memory and grow with the
    /// store. SQLite refuses the change inside a transaction once the temporary database is open; then the index
    /// is kept. (Statement journals follow too, but with SpatiaLite's triggers suspended a row's journal is a few
    /// pages, which SQLite keeps in memory anyway.) `transaction` restores the setting when the transaction ends.
    private func sortToFiles() throws(StoreError) -> Bool {
        try? db.execute("PRAGMA temp_store = FILE")
        guard try db.scalarInt("PRAGMA temp_store") == 1 else { return false }
        restoreTempStoreAfterTransaction = true
        return true
    }

    /// Builds the geohash index in one sorted pass. The sorter keeps runs as large as the page cache in memory:
    /// beside a full 64 MB cache a 64 MB run would double the import's peak, so the cache shrinks meanwhile.
    private func createGeohashIndex() throws(StoreError) {
        let cache = try db.scalarInt("PRAGMA cache_size") ?? -65_536
        try db.execute("PRAGMA cache_size = -\(Self.sorterCacheKiB)")
        defer { try? db.execute("PRAGMA cache_size = \(cache)") }
        try db.execute(SQLiteSchema.geohashIndexSQL)
    }

    /// Page cache (and so sorter run size) while the geohash index is built.
    static let sorterCacheKiB = 4_096

    /// Drops the bookkeeping of a bulk import (its transaction's rollback restores the triggers).
    public func endBulkImport() throws(StoreError) {
        let scratch = self.scratch
        bulk = nil
        if scratch == "main" {
            // Dropping a table of a million rows at once held ~50 MB of freed pages in memory until the commit;
            // emptied 20,000 rows at a time, the page cache stays within its limit.
            try empty("oncue_import_seen", key: "id")
            try empty("oncue_import_changed", key: "location_rowid")
        }
        db.resetCachedStatements()
        try db.execute("DROP TABLE IF EXISTS \(scratch).oncue_import_seen; DROP TABLE IF EXISTS \(scratch).oncue_import_changed")
        try db.execute("PRAGMA mmap_size = \(SQLiteLocationStore.mmapBytes)")
        try db.execute("PRAGMA cache_size = -\(SQLiteLocationStore.cacheKiB)")
    }

    /// Imports of fewer rows than this are small (`beginBulkImport`), and get a page cache of this many KiB.
    static let smallImportRows = 50_000
    static let smallImportCacheKiB = 16_384

    /// Where the current bulk import keeps its bookkeeping (see `beginBulkImport`).
    private var scratch: String { bulk?.scratch ?? "main" }

    /// Forgets a bulk import whose transaction is being rolled back (the rollback restores the triggers and
    /// removes the scratch tables; emptying them first would be wasted work).
    public func abandonBulkImport() {
        bulk = nil
        db.resetCachedStatements()
        try? db.execute("PRAGMA mmap_size = \(SQLiteLocationStore.mmapBytes)")
    }

    private func empty(_ table: String, key: String) throws(StoreError) {
        let exists = try db.statement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1")
        exists.bind(1, table)
        let found = try exists.step()
        exists.reset()
        guard found else { return }
        let chunk = try db.statement("DELETE FROM main.\(table) WHERE \(key) IN (SELECT \(key) FROM main.\(table) LIMIT 20000)")
        repeat {
            chunk.reset()
            try chunk.step()
        } while db.changes > 0
        chunk.reset()
    }

    /// Records that the import lists `id` at `line`. Returns nil the first time, and the line that
    /// listed it first when the id was already seen (an in-file duplicate).
    public func markSeen(_ id: String, line: Int) throws(StoreError) -> Int? {
        guard let insert = bulk?.statements.markSeen else { throw .invalidArgument("markSeen outside a bulk import") }
        insert.rewind()
        insert.bind(1, id)
        insert.bind(2, line)
        try insert.step()
        if db.changes == 1 { return nil }
        return try seenLine(id)
    }

    /// The line at which the current import listed `id`, if it did.
    public func seenLine(_ id: String) throws(StoreError) -> Int? {
        guard let s = bulk?.statements.seenLine else { throw .invalidArgument("seenLine outside a bulk import") }
        s.rewind()
        s.bind(1, id)
        defer { s.rewind() }
        return try s.step() ? Int(s.int64(0)) : nil
    }

    /// The timestamp format the store writes, computed once per import rather than per row.
    public static func storeTimestamp(_ date: Date) -> String { timestamp(date) }

    /// Inserts, updates or leaves one location, comparing in SQL so that an unchanged row costs
    /// one indexed read and no allocation. The caller holds a transaction.
    public func bulkUpsert(_ location: Location, timestamp: String) throws(StoreError) -> UpsertOutcome {
        // A network with no locations before the import cannot hold this row unless the import listed its id
        // already, which `markSeen` reports first: skip the probe.
        if let number = try bulkEmptyNetworkNumber(location.networkId) {
            return try bulkInsert(location, timestamp: timestamp, emptyNetworkNumber: number)
        }
        guard let statements = bulk?.statements else { throw .invalidArgument("bulkUpsert outside a bulk import") }
        let probe = statements.probe
        probe.rewind()
        probe.bind(1, location.id)
        bindContent(probe, location)
        let exists = try probe.step()
        let unchanged = exists && probe.int64(1) == 1
        let existingRowid = exists ? probe.int64(0) : nil
        probe.rewind()
        if unchanged { return .unchanged }
        try db.noteChange()
        if exists {
            let s = statements.update
            s.rewind()
            bindLocation(s, location, timestamp: timestamp)
            try s.step()
            try noteUpdated(rowid: existingRowid!)
            return .updated
        }
        return try bulkInsert(location, timestamp: timestamp, emptyNetworkNumber: nil)
    }

    private func bulkInsert(_ location: Location, timestamp: String, emptyNetworkNumber: UInt64?) throws(StoreError) -> UpsertOutcome {
        try db.noteChange()
        guard let s = bulk?.statements.insert else { throw .invalidArgument("bulkInsert outside a bulk import") }
        s.rewind()
        bindLocation(s, location, timestamp: timestamp)
        do { try s.step() } catch {
            if try network(id: location.networkId) == nil { throw .unknownNetwork(location.networkId) }
            throw error
        }
        try countInsert()
        if let number = emptyNetworkNumber {
            bulk!.occupied.insert(network: number, cell: Geohash(location.coordinate, precision: OccupiedCells.precision))
        }
        return .inserted
    }

    /// Counts a bulk insert and drops the geohash index at the insert chosen by `beginBulkImport`. Dropping it
    /// inside the import's transaction means a failed or killed import leaves it exactly as it was.
    private func countInsert() throws(StoreError) {
        guard bulk != nil else { return }
        bulk!.inserted += 1
        guard bulk!.inserted == bulk!.deferIndexAtInsert else { return }
        // DDL needs every statement of the connection at rest.
        db.resetCachedStatements()
        try db.execute("DROP INDEX locations_by_geohash")
    }

    /// The number of `networkId` in the import's `occupied` cells if it had no locations when the bulk import
    /// began; nil if it had some (asked once per network, before its first row), or outside a bulk import.
    private func bulkEmptyNetworkNumber(_ networkId: String) throws(StoreError) -> UInt64? {
        // Through `bulk` itself, never a copy of it: a copy alive while `bulk` changes would copy its bit set.
        guard bulk != nil else { return nil }
        if let known = bulk!.networkNumbers[networkId] { return known == 0 ? nil : known }
        let s = try db.statement("SELECT 1 FROM locations WHERE network_id = ?1 LIMIT 1")
        s.bind(1, networkId)
        let empty = try !s.step()
        s.reset()
        let number = empty ? UInt64(bulk!.networkNumbers.count + 1) : 0
        bulk!.networkNumbers[networkId] = number
        return empty ? number : nil
    }

    /// Remembers an updated row whose point the spatial index must take again at `finishBulkImport()`.
    private func noteUpdated(rowid: Int64) throws(StoreError) {
        guard let s = bulk?.statements.noteUpdated else { return }
        s.rewind()
        s.bind(1, rowid)
        try s.step()
    }

    /// Locations of one network within `meters` of `center` (other than `excludingId`), with their distances and, during
    /// a bulk import, the line at which the import listed each (nil: not listed so far): all of them, or the first
    /// `limit` the index gives, or fewer once `listedLimit` of them are listed.
    /// Reads only the (network, geohash, lat, lon) index, and, during a bulk import, not even that for a network
    /// that was empty when the import began and whose rows so far fill none of the cells around `center`.
    public func neighbours(
        networkId: String, center: Coordinate, withinMeters meters: Double,
        excludingId: String, limit: Int = .max, listedLimit: Int = .max
    ) throws(StoreError) -> [(id: String, distanceMeters: Double, listedLine: Int?)] {
        if let number = try bulkEmptyNetworkNumber(networkId), let occupied = bulk?.occupied,
            !occupied.mayHoldRow(network: number, near: center, withinMeters: meters)
        {
            return []
        }
        // A fixed precision skips the precision search: cells about as wide as the radius (≈ 38 × 19 m, 153 × 153 m,
        // 1.2 × 0.6 km) keep the rows read per probe near those within reach, however dense the area.
        let cover = GeohashCover(center: center, radiusMeters: meters, precision: meters <= 20 ? 8 : meters <= 150 ? 7 : 6)
        // The scan reads the index alone (it holds the rowid, not the id): in a dense cluster most rows of the cells
        // lie out of reach, and a table lookup for each of them was most of the import's time there.
        let s = try db.statement(
            """
            SELECT rowid, lat, lon FROM locations INDEXED BY locations_by_network_geohash
            WHERE network_id = ?1 AND geohash >= ?2 AND geohash < ?3
            """)
        // The id and the import's line in one step: both are needed for every neighbour within reach.
        let idOf = try db.statement(
            bulk == nil
                ? "SELECT id, NULL FROM locations WHERE rowid = ?1"
                : "SELECT l.id, s.line FROM locations AS l LEFT JOIN \(scratch).oncue_import_seen AS s ON s.id = l.id WHERE l.rowid = ?1")
        var found: [(id: String, distanceMeters: Double, listedLine: Int?)] = []
        // The centre's cell first: in a dense area its rows are the likeliest within reach, so the search stops at
        // `limit` after reading a fraction of the rows the other cells would have cost.
        var cells = cover.cells
        if let home = cells.firstIndex(of: Geohash(center, precision: cover.precision)) { cells.swapAt(0, home) }
        neighbourSearches.searches += 1
        var listed = 0
        for cell in cells where found.count < limit && listed < listedLimit {
            s.reset()
            s.bind(1, networkId)
            s.bind(2, cell.string)
            s.bind(3, cell.string(suffix: UInt8(ascii: "{")))
            while found.count < limit, listed < listedLimit, try s.step() {
                neighbourSearches.rowsRead += 1
                let d = Sphere.distance(lat1: center.latitude, lon1: center.longitude, lat2: s.double(1), lon2: s.double(2))
                guard d <= meters else { continue }
                idOf.reset()
                idOf.bind(1, s.int64(0))
                guard try idOf.step() else { continue }
                let id = idOf.text(0)
                let line = idOf.isNull(1) ? nil : Int(idOf.int64(1))
                idOf.reset()
                if id != excludingId {
                    found.append((id, d, line))
                    if line != nil { listed += 1 }
                }
            }
            s.reset()
        }
        return found
    }

    /// Deletes the locations of `networkId` that the current import has not listed; returns how many.
    public func removeUnseen(networkId: String) throws(StoreError) -> Int {
        try db.noteChange()
        let s = try db.statement(
            """
            DELETE FROM locations WHERE network_id = ?1 AND id NOT IN (SELECT id FROM \(scratch).oncue_import_seen)
            """)
        s.bind(1, networkId)
        try s.step()
        return db.changes
    }

    /// Updates the import's header row (status, counts, times) without touching its issues.
    public func finishImport(_ record: ImportRecord) throws(StoreError) {
        guard let id = record.id else { throw .invalidArgument("finishImport needs a record with an id") }
        let s = try db.statement(
            """
            UPDATE imports SET encoding = ?2, options_json = ?3, finished_at = ?4, status = ?5, rows_read = ?6,
                rows_inserted = ?7, rows_updated = ?8, rows_unchanged = ?9, rows_removed = ?10, rows_rejected = ?11,
                rows_warned = ?12, error_message = ?13, file_size = ?14, sha256 = ?15, geocoding_json = ?16, precision_json = ?17
            WHERE id = ?1
            """)
        s.bind(1, id)
        s.bind(2, record.encoding)
        s.bind(3, RecordCodec.encodeOptions(record.options))
        s.bind(4, record.finishedAt.map { Self.timestamp($0) })
        s.bind(5, record.status)
        let c = record.counts
        for (i, v) in [c.read, c.inserted, c.updated, c.unchanged, c.removed, c.rejected, c.warned].enumerated() {
            s.bind(Int32(6 + i), v)
        }
        s.bind(13, record.errorMessage)
        s.bind(14, record.fileSize)
        s.bind(15, record.sha256)
        s.bind(16, RecordCodec.encodeJSON(record.geocoding))
        s.bind(17, RecordCodec.encodeJSON(record.coordinatePrecision))
        try s.step()
    }
}

/// What a bulk import in progress has changed about the store's usual behaviour, to undo at its end.
struct BulkImportState {
    /// Rows inserted by the import get ROWIDs from here on (SQLite assigns max(ROWID) + 1).
    var firstNewRowid: Int64
    /// The schema of the scratch tables: `temp` when temporary storage is on disk, else `main`.
    var scratch: String
    /// SpatiaLite's per-row triggers on `locations`, dropped for the import: (name, SQL).
    var suspendedTriggers: [(name: String, sql: String)] = []
    /// For each network asked about: 0 if it had locations when the import began, else its key in `occupied` (1, 2, …).
    var networkNumbers: [String: UInt64] = [:]
    /// The cells the import has inserted rows of those networks into.
    var occupied: OccupiedCells
    /// Rows inserted so far.
    var inserted = 0
    /// The insert at which the geohash index is dropped (nil: kept throughout).
    var deferIndexAtInsert: Int?
    /// The statements run for every row.
    let statements: BulkStatements
    var geohashIndexDropped: Bool { deferIndexAtInsert.map { inserted >= $0 } ?? false }
}
