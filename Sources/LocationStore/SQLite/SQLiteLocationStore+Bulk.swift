import Foundation
import Geo

/// The row-at-a-time write path of the chain importer: it runs inside one caller-held transaction,
/// uses prepared statements only, and keeps its per-import bookkeeping (which ids the import has
/// listed) in a temporary table, so memory stays flat however large the file is.
extension SQLiteLocationStore {
    /// Starts the bookkeeping of a bulk import. Call inside `transaction { }`.
    public func beginBulkImport() throws(StoreError) {
        try db.execute("CREATE TEMP TABLE IF NOT EXISTS import_seen (id TEXT PRIMARY KEY NOT NULL, line INTEGER NOT NULL) WITHOUT ROWID")
        try db.execute("DELETE FROM temp.import_seen")
    }

    /// Drops the bookkeeping of a bulk import.
    public func endBulkImport() throws(StoreError) {
        try db.execute("DROP TABLE IF EXISTS temp.import_seen")
    }

    /// Records that the import lists `id` at `line`. Returns nil the first time, and the line that
    /// listed it first when the id was already seen (an in-file duplicate).
    public func markSeen(_ id: String, line: Int) throws(StoreError) -> Int? {
        let insert = try db.statement("INSERT INTO temp.import_seen (id, line) VALUES (?1, ?2) ON CONFLICT(id) DO NOTHING")
        insert.bind(1, id)
        insert.bind(2, line)
        try insert.step()
        if db.changes == 1 { return nil }
        return try seenLine(id)
    }

    /// The line at which the current import listed `id`, if it did.
    public func seenLine(_ id: String) throws(StoreError) -> Int? {
        let s = try db.statement("SELECT line FROM temp.import_seen WHERE id = ?1")
        s.bind(1, id)
        return try s.step() ? Int(s.int64(0)) : nil
    }

    /// The timestamp format the store writes, computed once per import rather than per row.
    public static func storeTimestamp(_ date: Date) -> String { timestamp(date) }

    /// Inserts, updates or leaves one location, comparing in SQL so that an unchanged row costs
    /// one indexed read and no allocation. The caller holds a transaction.
    public func bulkUpsert(_ location: Location, timestamp: String) throws(StoreError) -> UpsertOutcome {
        let probe = try db.statement("""
            SELECT network_id IS ?2 AND external_id IS ?3 AND name IS ?4 AND address IS ?5 AND city IS ?6 AND region IS ?7
                AND postal_code IS ?8 AND country IS ?9 AND lat = ?10 AND lon = ?11 AND radius_m IS ?12 AND venue_radius_m IS ?13
            FROM locations WHERE id = ?1
            """)
        probe.bind(1, location.id)
        bindContent(probe, location)
        let exists = try probe.step()
        if exists && probe.int64(0) == 1 { return .unchanged }
        let geohash = Geohash(location.coordinate, precision: 12).string
        if exists {
            let s = try db.statement("""
                UPDATE locations SET network_id = ?2, external_id = ?3, name = ?4, address = ?5, city = ?6, region = ?7,
                    postal_code = ?8, country = ?9, lat = ?10, lon = ?11, radius_m = ?12, venue_radius_m = ?13, geohash = ?14,
                    source_import_id = ?15, updated_at = ?16, geom = MakePoint(?11, ?10, 4326)
                WHERE id = ?1
                """)
            s.bind(1, location.id)
            bindContent(s, location)
            s.bind(14, geohash)
            s.bind(15, location.sourceImportId)
            s.bind(16, timestamp)
            try s.step()
            return .updated
        }
        let s = try db.statement("""
            INSERT INTO locations (id, network_id, external_id, name, address, city, region, postal_code, country, lat, lon,
                radius_m, venue_radius_m, geohash, source_import_id, created_at, updated_at, geom)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?16, MakePoint(?11, ?10, 4326))
            """)
        s.bind(1, location.id)
        bindContent(s, location)
        s.bind(14, geohash)
        s.bind(15, location.sourceImportId)
        s.bind(16, timestamp)
        do { try s.step() } catch {
            if try network(id: location.networkId) == nil { throw .unknownNetwork(location.networkId) }
            throw error
        }
        return .inserted
    }

    private func bindContent(_ s: SQLiteStatement, _ l: Location) {
        s.bind(2, l.networkId)
        s.bind(3, l.externalId)
        s.bind(4, l.name)
        s.bind(5, l.address)
        s.bind(6, l.city)
        s.bind(7, l.region)
        s.bind(8, l.postalCode)
        s.bind(9, l.country)
        s.bind(10, l.coordinate.latitude)
        s.bind(11, l.coordinate.longitude)
        s.bind(12, l.radiusMeters)
        s.bind(13, l.venueRadiusMeters)
    }

    /// Locations of one network within `meters` of `center` (other than `excludingId`), with their distances.
    /// Reads only the (network, geohash, lat, lon) index.
    public func neighbours(networkId: String, center: Coordinate, withinMeters meters: Double,
                           excludingId: String) throws(StoreError) -> [(id: String, distanceMeters: Double)] {
        // A fixed precision skips the precision search: cells of ≈ 38 × 19 m suit the metre-scale radii this serves.
        let cover = GeohashCover(center: center, radiusMeters: meters, precision: meters <= 20 ? 8 : 6)
        let s = try db.statement("""
            SELECT id, lat, lon FROM locations INDEXED BY locations_by_network_geohash
            WHERE network_id = ?1 AND geohash >= ?2 AND geohash < ?3
            """)
        var found: [(id: String, distanceMeters: Double)] = []
        for range in cover.stringRanges {
            s.reset()
            s.bind(1, networkId)
            s.bind(2, range.lower)
            s.bind(3, range.upper)
            while try s.step() {
                let d = Sphere.distance(lat1: center.latitude, lon1: center.longitude, lat2: s.double(1), lon2: s.double(2))
                if d <= meters {
                    let id = s.text(0)
                    if id != excludingId { found.append((id, d)) }
                }
            }
        }
        return found
    }

    /// Deletes the locations of `networkId` that the current import has not listed; returns how many.
    public func removeUnseen(networkId: String) throws(StoreError) -> Int {
        let s = try db.statement("""
            DELETE FROM locations WHERE network_id = ?1 AND id NOT IN (SELECT id FROM temp.import_seen)
            """)
        s.bind(1, networkId)
        try s.step()
        return db.changes
    }

    /// Counts what `removeUnseen` would delete, for dry runs and reports.
    public func countUnseen(networkId: String) throws(StoreError) -> Int {
        let s = try db.statement("""
            SELECT count(*) FROM locations WHERE network_id = ?1 AND id NOT IN (SELECT id FROM temp.import_seen)
            """)
        s.bind(1, networkId)
        return try s.step() ? Int(s.int64(0)) : 0
    }

    /// Appends issues to an import's log as they are found, so the rejected rows of a huge file
    /// never have to be held in memory.
    public func appendImportIssues(_ issues: [ImportIssue], importId: Int64) throws(StoreError) {
        let s = try db.statement("""
            INSERT INTO import_issues (import_id, line, severity, code, message, external_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            """)
        for issue in issues {
            s.reset()
            s.bind(1, importId)
            s.bind(2, issue.line)
            s.bind(3, issue.severity.rawValue)
            s.bind(4, issue.code)
            s.bind(5, issue.message)
            s.bind(6, issue.externalId)
            try s.step()
        }
    }

    /// Updates the import's header row (status, counts, times) without touching its issues.
    public func finishImport(_ record: ImportRecord) throws(StoreError) {
        guard let id = record.id else { throw .invalidArgument("finishImport needs a record with an id") }
        let s = try db.statement("""
            UPDATE imports SET encoding = ?2, options_json = ?3, finished_at = ?4, status = ?5, rows_read = ?6,
                rows_inserted = ?7, rows_updated = ?8, rows_unchanged = ?9, rows_removed = ?10, rows_rejected = ?11,
                rows_warned = ?12, error_message = ?13, file_size = ?14, sha256 = ?15
            WHERE id = ?1
            """)
        s.bind(1, id)
        s.bind(2, record.encoding)
        s.bind(3, Self.encodeOptions(record.options))
        s.bind(4, record.finishedAt.map { Self.timestamp($0) })
        s.bind(5, record.status)
        let c = record.counts
        for (i, v) in [c.read, c.inserted, c.updated, c.unchanged, c.removed, c.rejected, c.warned].enumerated() {
            s.bind(Int32(6 + i), v)
        }
        s.bind(13, record.errorMessage)
        s.bind(14, record.fileSize)
        s.bind(15, record.sha256)
        try s.step()
    }
}
