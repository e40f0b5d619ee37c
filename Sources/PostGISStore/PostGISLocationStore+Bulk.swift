import Foundation
import Geo
import LocationStore
import NIOCore
import PostgresNIO

extension PostGISLocationStore {
    /// The staging table of a bulk import: temporary, dropped when the transaction ends, whether it commits or not.
    public func beginStaging() async throws {
        try await query(
            """
            CREATE TEMPORARY TABLE oncue_stage (
                file_no integer NOT NULL, line bigint NOT NULL, id text COLLATE "C" NOT NULL, network_id text COLLATE "C" NOT NULL,
                external_id text NOT NULL, name text NOT NULL, address text, city text, region text, postal_code text, country text,
                lat double precision NOT NULL, lon double precision NOT NULL, geohash text COLLATE "C" NOT NULL,
                radius_m double precision, venue_radius_m double precision, source_import_id bigint,
                geocoded boolean NOT NULL, warned boolean NOT NULL,
                prov_source text, prov_display_name text, prov_place_rank integer, prov_importance double precision,
                prov_original_lat double precision, prov_original_lon double precision, prov_shift_m double precision,
                opening_hours text, uncertainty_m double precision)
            ON COMMIT DROP
            """)
    }

    /// Writes the networks and aliases an import created or changed, before its locations.
    public func applyNetworkChanges(_ networks: [Network], aliases: [(alias: String, networkId: String)]) async throws {
        try await bulkWriter.applyNetworkChanges(networks, aliases: aliases, changeVersion: try await noteChange())
    }

    /// Upserts every staged row in one statement. A row whose content equals the stored one is not written (its
    /// `source_import_id` stays), exactly as in the SQLite store; `xmax = 0` tells an insert from an update.
    public func upsertStaged() async throws -> [Int: ImportRowCounts] {
        let version = try await noteChange()
        let rows = try await rows(
            """
            WITH up AS (
                \(unescaped: Self.insertLocationColumns)
                SELECT id, network_id, external_id, name, address, city, region, postal_code, country, lat, lon,
                    ST_SetSRID(ST_MakePoint(lon, lat), 4326), geohash, radius_m, venue_radius_m, source_import_id, now(), now(),
                    opening_hours, \(version), uncertainty_m
                FROM oncue_stage
                \(unescaped: Self.upsertByIdClause)
                RETURNING id, (xmax = 0) AS inserted)
            SELECT s.file_no, count(*) FILTER (WHERE up.inserted), count(*) FILTER (WHERE NOT up.inserted)
            FROM up JOIN oncue_stage s ON s.id = up.id GROUP BY s.file_no
            """)
        var counts: [Int: ImportRowCounts] = [:]
        for row in rows {
            let (file, inserted, updated) = try row.decode((Int32, Int64, Int64).self)
            counts[Int(file)] = ImportRowCounts(inserted: Int(inserted), updated: Int(updated))
        }
        return counts
    }

    /// An index on the staged ids and statistics for the staging table (temporary tables are never analysed on their
    /// own), once every row is staged. Without them the planner guesses, and a guess of one row for a network's stale
    /// statistics picked plans that scan the whole stage once per location: a pile-up of 5,000 rows on one point spent
    /// 13 s in `unlistedNeighbours` comparing 168 million pairs, where the index makes each probe a lookup.
    public func analyzeStaging() async throws {
        try await query("CREATE INDEX IF NOT EXISTS oncue_stage_id ON oncue_stage (id)")
        try await query("ANALYZE oncue_stage")
    }

    /// Staged rows near a location of their network that the import does not list (after the upsert): probed from those
    /// locations, which are few (a re-import lists nearly all of a network's locations), through the GiST index: a box
    /// around each that holds every point within the distance (`NearbyBox`), then the great-circle test. Each probe
    /// looks at the first `limit` locations it finds, so that a pile-up on one point costs per location, not per pair.
    public func unlistedNeighbours(networks: [String], withinMeters meters: Double, limit: Int = 16) async throws -> [NearExistingRow] {
        guard !networks.isEmpty else { return [] }
        // Widened a little: OnCue's haversine decides, on the coordinates returned, as for rows within the import.
        let reach = meters * (1 + 1e-6) + 0.01
        var sql = PostgresQuery.StringInterpolation(literalCapacity: 1_024, interpolationCount: 2 * networks.count + 3)
        sql.appendLiteral(
            """
            SELECT a.file_no, a.line, a.external_id, a.lat, a.lon, a.warned, u.id, u.lat, u.lon
            FROM (SELECT l.id, l.network_id, l.lat, l.lon, l.geohash, l.geom FROM locations l
                  WHERE
            """)
        PostGISSchema.appendNetworkIdRanges(networks, column: "l.id", to: &sql)
        sql.appendLiteral(" AND l.network_id = ANY(")
        sql.appendInterpolation(networks)
        sql.appendLiteral(
            """
            ) AND NOT EXISTS (SELECT 1 FROM oncue_stage s WHERE s.id = l.id)) u
            CROSS JOIN LATERAL (SELECT m.id FROM locations m
                  WHERE \(NearbyBox.predicate(column: "m.geom", latitude: "u.lat", longitude: "u.lon", meters: reach))
                      AND ST_DWithin(m.geom::geography, u.geom::geography,
            """)
        sql.appendInterpolation(reach)
        sql.appendLiteral(", false) AND m.network_id = u.network_id AND m.id <> u.id LIMIT ")
        sql.appendInterpolation(Int64(limit))
        sql.appendLiteral(") m JOIN oncue_stage a ON a.id = m.id ORDER BY a.file_no, a.line, u.geohash, u.id")
        var out: [NearExistingRow] = []
        for try await row in try await query(PostgresQuery(stringInterpolation: sql)) {
            let (file, line, external, lat, lon, warned, uid, ulat, ulon) = try row.decode(
                (Int32, Int64, String, Double, Double, Bool, String, Double, Double).self)
            let distance = Sphere.distance(lat1: lat, lon1: lon, lat2: ulat, lon2: ulon)
            guard distance <= meters else { continue }
            out.append(
                NearExistingRow(
                    fileNumber: Int(file), line: Int(line), externalId: external, neighbourId: uid, distanceMeters: distance,
                    warned: warned))
        }
        return out
    }

    /// `--replace-network`: deletes the locations of these networks that the import does not list; returns how many.
    public func removeUnstaged(networks: [String]) async throws -> Int {
        guard !networks.isEmpty else { return 0 }
        _ = try await noteChange()
        var sql = PostgresQuery.StringInterpolation(literalCapacity: 256, interpolationCount: 2 * networks.count + 1)
        sql.appendLiteral("DELETE FROM locations l WHERE ")
        PostGISSchema.appendNetworkIdRanges(networks, column: "l.id", to: &sql)
        sql.appendLiteral(" AND l.network_id = ANY(")
        sql.appendInterpolation(networks)
        sql.appendLiteral(") AND NOT EXISTS (SELECT 1 FROM oncue_stage s WHERE s.id = l.id) RETURNING 1")
        return try await rows(PostgresQuery(stringInterpolation: sql)).count
    }

    /// Keeps where geocoded rows' points came from, forgets it for rows placed by their file, and drops the records of
    /// locations that no longer exist.
    public func applyStagedProvenance() async throws {
        try await query(
            """
            INSERT INTO geocoded_locations (location_id, source, display_name, place_rank, importance, original_lat, original_lon,
                shift_m, import_id)
            SELECT id, prov_source, prov_display_name, prov_place_rank, prov_importance, prov_original_lat, prov_original_lon,
                prov_shift_m, source_import_id
            FROM oncue_stage WHERE geocoded
            ON CONFLICT (location_id) DO UPDATE SET source = EXCLUDED.source, display_name = EXCLUDED.display_name,
                place_rank = EXCLUDED.place_rank, importance = EXCLUDED.importance, original_lat = EXCLUDED.original_lat,
                original_lon = EXCLUDED.original_lon, shift_m = EXCLUDED.shift_m, import_id = EXCLUDED.import_id
            """)
        try await query(
            """
            DELETE FROM geocoded_locations g WHERE EXISTS (SELECT 1 FROM oncue_stage s WHERE s.id = g.location_id AND NOT s.geocoded)
                OR NOT EXISTS (SELECT 1 FROM locations l WHERE l.id = g.location_id)
            """)
    }
}

/// What a bulk load changed about the table's indexes, to undo at its end (inside the same transaction: a rollback
/// brings them back by itself).
public struct BulkIndexState: Sendable {
    public var droppedIndexes: [(name: String, create: String)] = []
    public var droppedConstraints: [(name: String, create: String)] = []
    public var droppedPrimaryKey = false
    public init() {}
}

extension PostGISLocationStore {
    /// Locations in the table now, counted up to `limit` (an estimate from the planner's statistics is not enough: the
    /// decision to drop indexes must not be fooled by a stale one; and it only needs to know whether the table is
    /// smaller than a bound, which costs that bound rather than the table).
    public func locationCount(atMost limit: Int) async throws -> Int {
        Int(try await rows("SELECT count(*) FROM (SELECT 1 FROM locations LIMIT \(Int64(limit))) t").first?.decode(Int64.self) ?? 0)
    }

    /// Drops the secondary indexes (and the primary key when the table is empty) before a load that dwarfs the table,
    /// so that they are built once at the end rather than maintained through every insert.
    public func suspendIndexes(tableIsEmpty: Bool) async throws -> BulkIndexState {
        var state = BulkIndexState()
        for index in PostGISSchema.bulkIndexes {
            try await query(PostgresQuery(unsafeSQL: "DROP INDEX \(index.name)"))
            state.droppedIndexes.append(index)
        }
        for constraint in PostGISSchema.bulkConstraints {
            try await query(PostgresQuery(unsafeSQL: "ALTER TABLE locations DROP CONSTRAINT \(constraint.name)"))
            state.droppedConstraints.append(constraint)
        }
        if tableIsEmpty {
            try await query(PostgresQuery(unsafeSQL: "ALTER TABLE locations DROP CONSTRAINT \(PostGISSchema.primaryKey.name)"))
            state.droppedPrimaryKey = true
        }
        return state
    }

    /// Builds what `suspendIndexes` dropped, with more sort memory than the default for this transaction.
    public func restoreIndexes(_ state: BulkIndexState) async throws {
        try await query("SET LOCAL maintenance_work_mem = '512MB'")
        if state.droppedPrimaryKey { try await query(PostgresQuery(unsafeSQL: PostGISSchema.primaryKey.create)) }
        for constraint in state.droppedConstraints { try await query(PostgresQuery(unsafeSQL: constraint.create)) }
        for index in state.droppedIndexes { try await query(PostgresQuery(unsafeSQL: index.create)) }
    }

    /// Provenance of geocoded rows loaded directly (a geocoder answers a request a second: they are few).
    public func recordGeocodedLocations(_ all: [GeocodeProvenance]) async throws {
        for p in all {
            try await query(
                """
                INSERT INTO geocoded_locations (location_id, source, display_name, place_rank, importance, original_lat, original_lon,
                    shift_m, import_id)
                VALUES (\(p.locationId), \(p.source), \(p.displayName), \(p.placeRank.map { Int32($0) }), \(p.importance),
                    \(p.originalLatitude), \(p.originalLongitude), \(p.shiftMeters), \(p.importId))
                ON CONFLICT (location_id) DO NOTHING
                """)
        }
    }
}
