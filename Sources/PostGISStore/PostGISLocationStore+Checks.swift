import Geo
import LocationStore
import PostgresNIO

extension PostGISLocationStore {
    public var consistencyChecks: [String] { ["indexes", "geom and geohash in step with lat/lon", "networks", "amcheck"] }

    /// The store's health: the schema's indexes present and valid, every `geom` and `geohash` in step with `lat`/`lon`,
    /// every location's network present, and `amcheck`'s B-tree check of the location indexes when the extension can be
    /// used; returns the problems found (empty = healthy).
    public func verify() async throws -> [String] {
        var problems: [String] = []
        let present = Set(
            try await rows(
                """
                SELECT i.relname FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
                WHERE t.relname = 'locations' AND x.indisvalid
                """
            ).map { try $0.decode(String.self) })
        for name in PostGISSchema.locationIndexes where !present.contains(name) { problems.append("index \(name) is missing or invalid") }
        let geom =
            try await rows(
                """
                SELECT count(*) FROM locations WHERE abs(ST_Y(geom) - lat) > 1e-9 OR abs(ST_X(geom) - lon) > 1e-9
                """
            ).first?.decode(Int64.self) ?? 0
        if geom > 0 { problems.append("\(geom) locations have a geom out of step with lat/lon") }
        let geohash =
            try await rows(
                """
                SELECT count(*) FROM locations WHERE geohash <> ST_GeoHash(ST_SetSRID(ST_MakePoint(lon, lat), 4326), 12)
                """
            ).first?.decode(Int64.self) ?? 0
        if geohash > 0 { problems.append("\(geohash) locations have a geohash out of step with lat/lon") }
        let orphans =
            try await rows(
                """
                SELECT count(*) FROM locations l WHERE NOT EXISTS (SELECT 1 FROM networks n WHERE n.id = l.network_id)
                """
            ).first?.decode(Int64.self) ?? 0
        if orphans > 0 { problems.append("\(orphans) locations belong to no network") }
        // amcheck ships with PostgreSQL; using it needs the extension in the database, which only some users may create.
        var amcheck = try await rows("SELECT count(*) FROM pg_extension WHERE extname = 'amcheck'").first?.decode(Int64.self) ?? 0 > 0
        if !amcheck {
            do {
                try await query("CREATE EXTENSION IF NOT EXISTS amcheck")
                amcheck = true
            } catch {
                amcheck = false
            }
        }
        if amcheck {
            for name in PostGISSchema.locationIndexes where name != "locations_geom" && present.contains(name) {
                do {
                    try await query("SELECT bt_index_check(\(name)::regclass)")
                } catch let StoreError.postgres(_, message) {
                    problems.append("bt_index_check(\(name)): \(message)")
                }
            }
        }
        return problems
    }
}

extension PostGISLocationStore {
    /// Rows this database has returned to queries since statistics were reset (`pg_stat_database.tup_returned`):
    /// tests use it to see which server, a primary or a standby, answered an index build.
    public func tuplesReturned() async throws -> Int64 {
        try await rows("SELECT tup_returned FROM pg_stat_database WHERE datname = current_database()").first?.decode(Int64.self) ?? 0
    }
}
