import Geo
import LocationStore

extension SQLiteLocationStore {
    static let locationColumns = """
        id, network_id, external_id, name, address, city, region, postal_code, country, lat, lon,
        radius_m, venue_radius_m, source_import_id, opening_hours, uncertainty_m
        """

    static func readLocation(_ s: SQLiteStatement, offset: Int32 = 0) -> Location {
        Location(
            id: s.text(offset), networkId: s.text(offset + 1), externalId: s.text(offset + 2), name: s.text(offset + 3),
            address: s.optionalText(offset + 4), city: s.optionalText(offset + 5), region: s.optionalText(offset + 6),
            postalCode: s.optionalText(offset + 7), country: s.optionalText(offset + 8),
            coordinate: Coordinate(uncheckedLatitude: s.double(offset + 9), longitude: s.double(offset + 10)),
            radiusMeters: s.optionalDouble(offset + 11), venueRadiusMeters: s.optionalDouble(offset + 12),
            sourceImportId: s.optionalInt64(offset + 13), openingHours: s.optionalText(offset + 14),
            positionUncertaintyMeters: s.optionalDouble(offset + 15))
    }

    public func location(id: String) throws(StoreError) -> Location? {
        let s = try db.statement("SELECT \(Self.locationColumns) FROM locations WHERE id = ?1")
        s.bind(1, id)
        return try s.step() ? Self.readLocation(s) : nil
    }

    public func upsert(_ locations: [Location]) throws -> [UpsertOutcome] {
        try writeTransaction {
            var outcomes: [UpsertOutcome] = []
            outcomes.reserveCapacity(locations.count)
            for location in locations { outcomes.append(try upsertOne(location)) }
            return outcomes
        }
    }

    /// Inserts, updates or leaves one location; the caller holds a transaction.
    func upsertOne(_ location: Location) throws(StoreError) -> UpsertOutcome {
        try RecordCodec.validate(location)
        if let existing = try self.location(id: location.id) {
            if existing.sameContent(as: location) { return .unchanged }
            try db.noteChange()
            let s = try db.statement(LocationRowSQL.update)
            bindLocation(s, location)
            try s.step()
            return .updated
        }
        let s = try db.statement(LocationRowSQL.insert)
        try db.noteChange()
        bindLocation(s, location)
        do { try s.step() } catch {
            if try network(id: location.networkId) == nil { throw .unknownNetwork(location.networkId) }
            throw error
        }
        return .inserted
    }

    /// Every column of a location row, in the order every location statement numbers them: ?1 id, ?2…?13 its content
    /// (`bindContent`, with ?17 the opening hours and ?18 the point's uncertainty), ?14 geohash, ?15 source import,
    /// ?16 time.
    func bindLocation(_ s: SQLiteStatement, _ l: Location, timestamp: String = SQLiteLocationStore.timestamp()) {
        s.bind(1, l.id)
        bindContent(s, l)
        s.bind(14, Geohash(l.coordinate, precision: 12).string)
        s.bind(15, l.sourceImportId)
        s.bind(16, timestamp)
    }

    /// ?2…?13, ?17 and ?18: what a location says of itself (network, external id, name, address lines, point, radii,
    /// opening hours, the point's uncertainty).
    func bindContent(_ s: SQLiteStatement, _ l: Location) {
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
        s.bind(17, l.openingHours)
        s.bind(18, l.positionUncertaintyMeters)
    }

    public func deleteLocations(ids: [String]) throws -> Int {
        try writeTransaction {
            try db.noteChange()
            let s = try db.statement("DELETE FROM locations WHERE id = ?1")
            var removed = 0
            for id in ids {
                s.reset()
                s.bind(1, id)
                try s.step()
                removed += db.changes
            }
            return removed
        }
    }

    public func locationIds(networkId: String) throws(StoreError) -> Set<String> {
        let s = try db.statement("SELECT id FROM locations WHERE network_id = ?1")
        s.bind(1, networkId)
        var ids = Set<String>()
        while try s.step() { ids.insert(s.text(0)) }
        return ids
    }

    public func forEachLocation(batchSize: Int = 10_000, _ body: ([Location]) throws -> Void) throws {
        // One statement over the table in rowid order: a consistent snapshot under WAL.
        let s = try SQLiteStatement(connection: db, sql: "SELECT \(Self.locationColumns) FROM locations ORDER BY rowid")
        var batch: [Location] = []
        batch.reserveCapacity(max(1, batchSize))
        while try s.step() {
            batch.append(Self.readLocation(s))
            if batch.count >= batchSize {
                try body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    public func stats() throws(StoreError) -> StoreStats {
        var counts: [(networkId: String, count: Int)] = []
        let s = try db.statement("SELECT network_id, count(*) FROM locations GROUP BY network_id ORDER BY count(*) DESC, network_id")
        while try s.step() { counts.append((s.text(0), Int(s.int64(1)))) }
        let total = counts.reduce(0) { $0 + $1.count }
        var bounds: GeoBox?
        if total > 0 {
            let b = try db.statement("SELECT min(lat), max(lat), min(lon), max(lon) FROM locations")
            if try b.step() {
                bounds = GeoBox(minLatitude: b.double(0), maxLatitude: b.double(1), minLongitude: b.double(2), maxLongitude: b.double(3))
            }
        }
        let pageCount = try db.scalarInt("PRAGMA page_count") ?? 0
        let pageSize = try db.scalarInt("PRAGMA page_size") ?? 0
        let imports = try db.scalarInt("SELECT count(*) FROM imports") ?? 0
        return StoreStats(
            locationCount: total, networkCounts: counts, bounds: bounds, fileSizeBytes: pageCount * pageSize,
            schemaVersion: schemaVersion, importCount: Int(imports))
    }
}
