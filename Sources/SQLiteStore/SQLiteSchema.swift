import LocationStore

/// The versioned schema of an OnCue SQLite store.
///
/// `PRAGMA application_id` marks the file as an OnCue store; `PRAGMA user_version` is the schema
/// version. Each migration runs in the same transaction as the version bump, so a store is always
/// at exactly one version.
enum SQLiteSchema {
    /// "ONCU" in ASCII.
    static let applicationId: Int64 = 0x4F4E_4355
    static let currentVersion = 9

    /// Covering index for nearby(): a range scan over geohash prefixes reads lat/lon without touching the table.
    /// A large bulk import drops it and creates it again from this text (see `beginBulkImport`).
    static let geohashIndexSQL = "CREATE INDEX locations_by_geohash ON locations(geohash, lat, lon)"

    /// The secondary indexes of `locations` that `verify()` expects.
    static let locationIndexes = ["locations_by_geohash", "locations_by_network_geohash", "locations_by_change"]

    /// Takes a store from version `step` to `step + 1`.
    static func migrate(_ db: SQLiteConnection, step: Int) throws(StoreError) {
        switch step {
        case 0: try createStore(db)
        case 1: try addGeocoding(db)
        case 2: try rekeyDerivedIds(db)
        case 3: try addColumn(db, table: "networks", column: "wikidata")
        case 4: try addColumn(db, table: "locations", column: "opening_hours")
        case 5: try addChangeTracking(db)
        case 6:
            // How far a point may be from its place: the import's measure, and a geocoder's box.
            try addColumn(db, table: "locations", column: "uncertainty_m", type: "REAL")
            try addColumn(db, table: "geocode_cache", column: "uncertainty_m", type: "REAL")
        case 7: try addRadiusIndexes(db)
        case 8: try addAccessLedger(db)
        default: throw .invalidArgument("no migration from schema version \(step)")
        }
    }

    /// Version 1: networks, locations with their SpatiaLite geometry, and the import log.
    private static func createStore(_ db: SQLiteConnection) throws(StoreError) {
        try db.execute(
            """
            CREATE TABLE networks (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL,
                category TEXT,
                is_large_area INTEGER NOT NULL DEFAULT 0,
                default_radius_m REAL,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL
            );
            CREATE TABLE network_aliases (
                alias_key TEXT PRIMARY KEY NOT NULL,
                alias TEXT NOT NULL,
                network_id TEXT NOT NULL REFERENCES networks(id) ON DELETE CASCADE
            );
            CREATE TABLE imports (
                id INTEGER PRIMARY KEY,
                file_name TEXT NOT NULL,
                file_size INTEGER NOT NULL,
                sha256 TEXT NOT NULL,
                encoding TEXT,
                options_json TEXT NOT NULL DEFAULT '{}',
                started_at TEXT NOT NULL,
                finished_at TEXT,
                status TEXT NOT NULL,
                rows_read INTEGER NOT NULL DEFAULT 0,
                rows_inserted INTEGER NOT NULL DEFAULT 0,
                rows_updated INTEGER NOT NULL DEFAULT 0,
                rows_unchanged INTEGER NOT NULL DEFAULT 0,
                rows_removed INTEGER NOT NULL DEFAULT 0,
                rows_rejected INTEGER NOT NULL DEFAULT 0,
                rows_warned INTEGER NOT NULL DEFAULT 0,
                error_message TEXT
            );
            CREATE TABLE import_issues (
                import_id INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
                line INTEGER NOT NULL,
                severity TEXT NOT NULL,
                code TEXT NOT NULL,
                message TEXT NOT NULL,
                external_id TEXT
            );
            CREATE INDEX import_issues_by_import ON import_issues(import_id, line);
            CREATE TABLE locations (
                id TEXT NOT NULL UNIQUE,
                network_id TEXT NOT NULL REFERENCES networks(id),
                external_id TEXT NOT NULL,
                name TEXT NOT NULL,
                address TEXT,
                city TEXT,
                region TEXT,
                postal_code TEXT,
                country TEXT,
                lat REAL NOT NULL CHECK (lat BETWEEN -90 AND 90),
                lon REAL NOT NULL CHECK (lon BETWEEN -180 AND 180),
                geohash TEXT NOT NULL,
                radius_m REAL,
                venue_radius_m REAL,
                source_import_id INTEGER,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                UNIQUE (network_id, external_id)
            );
            \(geohashIndexSQL);
            CREATE INDEX locations_by_network_geohash ON locations(network_id, geohash, lat, lon);
            """)
        // SpatiaLite metadata (WGS84 only), the POINT geometry and its R*Tree, so GIS tools open the file as a layer.
        try db.execute("SELECT InitSpatialMetaData('WGS84')")
        let added = try db.scalarInt("SELECT AddGeometryColumn('locations', 'geom', 4326, 'POINT', 'XY', 1)")
        guard added == 1 else { throw .spatialiteUnavailable("AddGeometryColumn failed: \(db.lastError)") }
        let indexed = try db.scalarInt("SELECT CreateSpatialIndex('locations', 'geom')")
        guard indexed == 1 else { throw .spatialiteUnavailable("CreateSpatialIndex failed: \(db.lastError)") }
    }

    /// Versions 4 (a brand network's Wikidata id) and 5 (a location's opening hours), text columns, and 7 (a point's
    /// uncertainty, in locations and the geocode cache), real ones. Idempotent, as a store taken back to an older
    /// version number (to run a re-keying again) already has it.
    private static func addColumn(_ db: SQLiteConnection, table: String, column: String, type: String = "TEXT") throws(StoreError) {
        let present = try db.scalarInt("SELECT count(*) FROM pragma_table_info('\(table)') WHERE name = '\(column)'") ?? 0
        guard present == 0 else { return }
        try db.execute("ALTER TABLE \(table) ADD COLUMN \(column) \(type)")
    }

    /// Version 8: the largest explicit radius and position uncertainty in two index lookups (`largestStoredRadius`), so
    /// that an index for one place knows how far a region can reach into it without reading every location. Partial:
    /// most rows have neither, and cost them nothing.
    static func addRadiusIndexes(_ db: SQLiteConnection) throws(StoreError) {
        try db.execute(
            """
            CREATE INDEX IF NOT EXISTS locations_with_radius ON locations(radius_m) WHERE radius_m IS NOT NULL;
            CREATE INDEX IF NOT EXISTS locations_with_uncertainty ON locations(uncertainty_m) WHERE uncertainty_m IS NOT NULL;
            """)
    }

    /// Version 9: admin keys (hashed) and the audit log of admin writes (`AccessLedger`).
    private static func addAccessLedger(_ db: SQLiteConnection) throws(StoreError) {
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS admin_keys (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL,
                role TEXT NOT NULL CHECK (role IN ('read', 'import', 'admin')),
                secret_sha256 TEXT NOT NULL UNIQUE,
                created_at TEXT NOT NULL,
                revoked_at TEXT
            );
            CREATE TABLE IF NOT EXISTS audit_log (
                id INTEGER PRIMARY KEY,
                at TEXT NOT NULL,
                key_id TEXT NOT NULL,
                action TEXT NOT NULL,
                target TEXT NOT NULL,
                result TEXT NOT NULL,
                detail TEXT
            );
            """)
    }

    /// Version 2: the geocoding cache and what geocoding did to each location and import.
    private static func addGeocoding(_ db: SQLiteConnection) throws(StoreError) {
        // Geocoding answers by normalised address and service, committed one by one before the import's
        // transaction: an interrupted import keeps what it fetched. Geocoded locations keep where their point
        // came from; the import log keeps what geocoding did and how coarse the file's coordinates were.
        try db.execute(
            """
            CREATE TABLE geocode_cache (
                source TEXT NOT NULL,
                address_key TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('found', 'not_found', 'area')),
                lat REAL CHECK (lat BETWEEN -90 AND 90),
                lon REAL CHECK (lon BETWEEN -180 AND 180),
                display_name TEXT,
                place_rank INTEGER,
                importance REAL,
                country_code TEXT,
                fetched_at TEXT NOT NULL,
                PRIMARY KEY (source, address_key)
            ) WITHOUT ROWID;
            CREATE TABLE geocoded_locations (
                location_id TEXT PRIMARY KEY NOT NULL,
                source TEXT NOT NULL,
                display_name TEXT,
                place_rank INTEGER,
                importance REAL,
                original_lat REAL,
                original_lon REAL,
                shift_m REAL,
                import_id INTEGER
            ) WITHOUT ROWID;
            ALTER TABLE imports ADD COLUMN geocoding_json TEXT;
            ALTER TABLE imports ADD COLUMN precision_json TEXT;
            """)
    }
}
