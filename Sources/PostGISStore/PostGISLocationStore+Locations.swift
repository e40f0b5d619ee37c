import Foundation
import Geo
import LocationStore
import PostgresNIO

extension PostGISLocationStore {
    static let locationColumns = """
        id, network_id, external_id, name, address, city, region, postal_code, country, lat, lon, radius_m, venue_radius_m, source_import_id,
        opening_hours, uncertainty_m
        """

    static func readLocation(_ row: PostgresRow) throws -> Location {
        let (id, network, external, name, address, city, region, postal, country, lat, lon, radius, venue, source, hours, uncertainty) =
            try row.decode(
                (
                    String, String, String, String, String?, String?, String?, String?, String?, Double, Double, Double?, Double?, Int64?, String?,
                    Double?
                )
                .self)
        return Location(
            id: id, networkId: network, externalId: external, name: name, address: address, city: city, region: region,
            postalCode: postal, country: country, coordinate: Coordinate(uncheckedLatitude: lat, longitude: lon),
            radiusMeters: radius, venueRadiusMeters: venue, sourceImportId: source, openingHours: hours, positionUncertaintyMeters: uncertainty)
    }

    public func location(id: String) async throws -> Location? {
        try await rows("SELECT \(unescaped: Self.locationColumns) FROM locations WHERE id = \(id)").first.map(Self.readLocation)
    }

    public func upsert(_ locations: [Location]) async throws -> [UpsertOutcome] {
        try await changing {
            var outcomes: [UpsertOutcome] = []
            outcomes.reserveCapacity(locations.count)
            for location in locations { outcomes.append(try await upsertOne(location)) }
            return outcomes
        }
    }

    /// Inserts, updates or leaves one location; `xmax = 0` tells a fresh row from an updated one, and no row back
    /// means the `WHERE … IS DISTINCT FROM` found nothing to change.
    func upsertOne(_ l: Location) async throws -> UpsertOutcome {
        try RecordCodec.validate(l)
        let geohash = Geohash(l.coordinate, precision: 12).string
        let lat = l.coordinate.latitude
        let lon = l.coordinate.longitude
        let version = try await noteChange()
        let result: [PostgresRow]
        do {
            result = try await rows(
                """
                \(unescaped: Self.insertLocationColumns)
                VALUES (\(l.id), \(l.networkId), \(l.externalId), \(l.name), \(l.address), \(l.city), \(l.region), \(l.postalCode),
                    \(l.country), \(lat), \(lon), ST_SetSRID(ST_MakePoint(\(lon), \(lat)), 4326), \(geohash),
                    \(l.radiusMeters), \(l.venueRadiusMeters), \(l.sourceImportId), now(), now(), \(l.openingHours), \(version),
                    \(l.positionUncertaintyMeters))
                \(unescaped: Self.upsertByIdClause)
                RETURNING (xmax = 0)
                """)
        } catch StoreError.postgres(let state, _) where state == "23503" {
            throw StoreError.unknownNetwork(l.networkId)  // foreign_key_violation: no such network
        }
        guard let row = result.first else { return .unchanged }
        return try row.decode(Bool.self) ? .inserted : .updated
    }

    public func deleteLocations(ids: [String]) async throws -> Int {
        try await changing {
            let rows = try await rows("DELETE FROM locations WHERE id = ANY(\(ids)) RETURNING 1")
            return rows.count
        }
    }

    public func locationIds(networkId: String) async throws -> Set<String> {
        var ids = Set<String>()
        let (lower, upper) = PostGISSchema.networkIdRange(networkId)
        for row in try await rows("SELECT id FROM locations WHERE id >= \(lower) AND id < \(upper) AND network_id = \(networkId)") {
            ids.insert(try row.decode(String.self))
        }
        return ids
    }

    /// Every location in id order, streamed in batches.
    public func forEachLocation(batchSize: Int, _ body: ([Location]) throws -> Void) async throws {
        var batch: [Location] = []
        batch.reserveCapacity(max(1, batchSize))
        for try await row in try await query("SELECT \(unescaped: Self.locationColumns) FROM locations ORDER BY id") {
            batch.append(try Self.readLocation(row))
            if batch.count >= batchSize {
                try body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    /// Only what an index needs, in table order (no sort: an index build does not care), streamed.
    public func forEachIndexRecord(batchSize: Int, _ body: ([IndexRecord]) throws -> Void) async throws {
        try await forEachIndexRecord(changedAfter: nil, batchSize: batchSize, body)
    }

    /// Through the `geom` GiST index, box by box (`NearbyBox`), then by great-circle distance.
    public func forEachIndexRecord(
        around center: Coordinate, meters: Double, batchSize: Int, _ body: ([IndexRecord]) throws -> Void
    ) async throws {
        try await forEachIndexRecord(changedAfter: nil, around: (center, meters), batchSize: batchSize, body)
    }

    /// `max()` over the partial indexes of schema 9: two index lookups.
    public func largestStoredRadius() async throws -> Double {
        let row = try await rows(
            """
            SELECT greatest(coalesce((SELECT max(radius_m) FROM locations WHERE radius_m IS NOT NULL), 0),
                            coalesce((SELECT max(uncertainty_m) FROM locations WHERE uncertainty_m IS NOT NULL), 0),
                            coalesce((SELECT max(default_radius_m) FROM networks), 0))::double precision
            """
        ).first
        return try row?.decode(Double.self) ?? 0
    }

    /// Every location's index fields, or those of the locations written after a change version, or those around a
    /// point.
    func forEachIndexRecord(
        changedAfter version: Int64?, around area: (center: Coordinate, meters: Double)? = nil, batchSize: Int,
        _ body: ([IndexRecord]) throws -> Void
    ) async throws {
        var batch: [IndexRecord] = []
        batch.reserveCapacity(max(1, batchSize))
        var lastNetwork = ""
        let columns = "id, network_id, name, address, lat, lon, radius_m, venue_radius_m, city, region, postal_code, opening_hours, uncertainty_m"
        let select: PostgresQuery =
            if let version {
                "SELECT \(unescaped: columns) FROM locations WHERE change_version > \(version)"
            } else if let area {
                "SELECT \(unescaped: columns) FROM locations WHERE \(unescaped: NearbyBox.predicate(column: "geom", around: area.center, meters: area.meters))"
            } else {
                "SELECT \(unescaped: columns) FROM locations"
            }
        for try await row in try await query(select) {
            var cells = IndexRowCells(row)
            let id = try cells.text()
            let network = try cells.text()
            let name = try cells.text()
            let address = try cells.optionalText()
            let lat = try cells.double()
            let lon = try cells.double()
            let radius = try cells.optionalDouble()
            let venue = try cells.optionalDouble()
            let city = try cells.optionalText()
            let region = try cells.optionalText()
            let postalCode = try cells.optionalText()
            let openingHours = try cells.optionalText()
            let uncertainty = try cells.optionalDouble()
            if let area, Sphere.distance(area.center, Coordinate(uncheckedLatitude: lat, longitude: lon)) > area.meters { continue }
            // One network's locations mostly follow each other: keep one copy of its id while it repeats.
            if network != lastNetwork { lastNetwork = network }
            batch.append(
                IndexRecord(
                    id: id, networkId: lastNetwork, name: name,
                    address: IndexRecord.postalAddress(street: address, city: city, region: region, postalCode: postalCode),
                    coordinate: Coordinate(uncheckedLatitude: lat, longitude: lon), radiusMeters: radius, venueRadiusMeters: venue,
                    openingHours: openingHours, positionUncertaintyMeters: uncertainty))
            if batch.count >= batchSize {
                try body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try body(batch) }
    }

    public func stats() async throws -> StoreStats {
        var counts: [(networkId: String, count: Int)] = []
        for row in try await rows("SELECT network_id, count(*) FROM locations GROUP BY network_id ORDER BY count(*) DESC, network_id") {
            let (id, n) = try row.decode((String, Int64).self)
            counts.append((id, Int(n)))
        }
        let total = counts.reduce(0) { $0 + $1.count }
        var bounds: GeoBox?
        if total > 0, let row = try await rows("SELECT min(lat), max(lat), min(lon), max(lon) FROM locations").first {
            let (a, b, c, d) = try row.decode((Double, Double, Double, Double).self)
            bounds = GeoBox(minLatitude: a, maxLatitude: b, minLongitude: c, maxLongitude: d)
        }
        let size = try await rows("SELECT pg_database_size(current_database())").first?.decode(Int64.self)
        let imports = try await rows("SELECT count(*) FROM imports").first?.decode(Int64.self) ?? 0
        return StoreStats(
            locationCount: total, networkCounts: counts, bounds: bounds, fileSizeBytes: size, schemaVersion: schemaVersion,
            importCount: Int(imports))
    }
}

extension PostGISLocationStore {
    /// The start of both location writes (one location, the staged import): the columns in the order their values
    /// follow.
    static let insertLocationColumns = """
        INSERT INTO locations (id, network_id, external_id, name, address, city, region, postal_code, country, lat, lon, geom,
            geohash, radius_m, venue_radius_m, source_import_id, created_at, updated_at, opening_hours, change_version, uncertainty_m)
        """

    /// How both location writes (one location, the staged import) upsert by id: every column replaced, but a row whose
    /// content equals the stored one is not written at all (its `source_import_id` and `updated_at` stay), exactly as
    /// the SQLite store decides it.
    static let upsertByIdClause = """
        ON CONFLICT (id) DO UPDATE SET network_id = EXCLUDED.network_id, external_id = EXCLUDED.external_id,
            name = EXCLUDED.name, address = EXCLUDED.address, city = EXCLUDED.city, region = EXCLUDED.region,
            postal_code = EXCLUDED.postal_code, country = EXCLUDED.country, lat = EXCLUDED.lat, lon = EXCLUDED.lon,
            geom = EXCLUDED.geom, geohash = EXCLUDED.geohash, radius_m = EXCLUDED.radius_m,
            venue_radius_m = EXCLUDED.venue_radius_m, source_import_id = EXCLUDED.source_import_id,
            opening_hours = EXCLUDED.opening_hours, change_version = EXCLUDED.change_version, updated_at = now(),
            uncertainty_m = EXCLUDED.uncertainty_m
        WHERE (locations.network_id, locations.external_id, locations.name, locations.address, locations.city,
               locations.region, locations.postal_code, locations.country, locations.lat, locations.lon,
               locations.radius_m, locations.venue_radius_m, locations.opening_hours, locations.uncertainty_m)
            IS DISTINCT FROM (EXCLUDED.network_id, EXCLUDED.external_id, EXCLUDED.name, EXCLUDED.address, EXCLUDED.city,
               EXCLUDED.region, EXCLUDED.postal_code, EXCLUDED.country, EXCLUDED.lat, EXCLUDED.lon,
               EXCLUDED.radius_m, EXCLUDED.venue_radius_m, EXCLUDED.opening_hours, EXCLUDED.uncertainty_m)
        """
}
