import PostgresNIO

/// The PostGIS store's schema, in versioned steps. `oncue_meta` marks a database as an OnCue store and holds its
/// version; a database without it that has tables of its own is refused, and one of a newer version too.
///
/// Ids and texts the engine orders by are `COLLATE "C"` (byte order), so PostGIS orders them as SQLite does.
enum PostGISSchema {
    static let currentVersion = 10

    /// Statements of each step, from version `index` to `index + 1`; each step runs in one transaction.
    static let steps: [[String]] = [
        [
            "CREATE TABLE oncue_meta (key text PRIMARY KEY, value text NOT NULL)",
            """
            CREATE TABLE networks (
                id text COLLATE "C" PRIMARY KEY,
                name text NOT NULL,
                category text,
                is_large_area boolean NOT NULL DEFAULT false,
                default_radius_m double precision CHECK (default_radius_m > 0),
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL)
            """,
            """
            CREATE TABLE network_aliases (
                alias_key text COLLATE "C" PRIMARY KEY,
                alias text NOT NULL,
                network_id text COLLATE "C" NOT NULL REFERENCES networks(id) ON DELETE CASCADE)
            """,
            """
            CREATE TABLE imports (
                id bigserial PRIMARY KEY,
                file_name text NOT NULL,
                file_size bigint NOT NULL,
                sha256 text NOT NULL,
                encoding text,
                options_json text NOT NULL DEFAULT '{}',
                started_at timestamptz NOT NULL,
                finished_at timestamptz,
                status text NOT NULL,
                rows_read bigint NOT NULL DEFAULT 0,
                rows_inserted bigint NOT NULL DEFAULT 0,
                rows_updated bigint NOT NULL DEFAULT 0,
                rows_unchanged bigint NOT NULL DEFAULT 0,
                rows_removed bigint NOT NULL DEFAULT 0,
                rows_rejected bigint NOT NULL DEFAULT 0,
                rows_warned bigint NOT NULL DEFAULT 0,
                error_message text,
                geocoding_json text,
                precision_json text)
            """,
            """
            CREATE TABLE import_issues (
                import_id bigint NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
                seq bigserial,
                line bigint NOT NULL,
                severity text NOT NULL,
                code text NOT NULL,
                message text NOT NULL,
                external_id text)
            """,
            "CREATE INDEX import_issues_by_import ON import_issues (import_id, line, seq)",
            """
            CREATE TABLE locations (
                id text COLLATE "C" PRIMARY KEY,
                network_id text COLLATE "C" NOT NULL REFERENCES networks(id),
                external_id text NOT NULL,
                name text NOT NULL,
                address text,
                city text,
                region text,
                postal_code text,
                country text,
                lat double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
                lon double precision NOT NULL CHECK (lon BETWEEN -180 AND 180),
                geog geography(Point, 4326) NOT NULL,
                geohash text COLLATE "C" NOT NULL,
                radius_m double precision CHECK (radius_m > 0),
                venue_radius_m double precision CHECK (venue_radius_m > 0),
                source_import_id bigint,
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL,
                UNIQUE (network_id, external_id))
            """,
            // (The SQLite store's (network_id, geohash) index serves its near-duplicate probes; the PostGIS store finds
            // near duplicates in memory and with the GiST index, so it has none.)
            "CREATE INDEX locations_geog ON locations USING gist (geog)",
            "CREATE INDEX locations_by_geohash ON locations (geohash)",
            """
            CREATE TABLE geocode_cache (
                source text NOT NULL,
                address_key text NOT NULL,
                status text NOT NULL CHECK (status IN ('found', 'not_found', 'area')),
                lat double precision CHECK (lat BETWEEN -90 AND 90),
                lon double precision CHECK (lon BETWEEN -180 AND 180),
                display_name text,
                place_rank integer,
                importance double precision,
                country_code text,
                fetched_at timestamptz NOT NULL,
                PRIMARY KEY (source, address_key))
            """,
            """
            CREATE TABLE geocoded_locations (
                location_id text COLLATE "C" PRIMARY KEY,
                source text NOT NULL,
                display_name text,
                place_rank integer,
                importance double precision,
                original_lat double precision,
                original_lon double precision,
                shift_m double precision,
                import_id bigint)
            """,
            // Bumped by every committed write that changes what the engine serves; replicas poll it and get it in NOTIFY.
            """
            CREATE TABLE oncue_store_version (
                one boolean PRIMARY KEY DEFAULT true CHECK (one),
                version bigint NOT NULL,
                changed_at timestamptz NOT NULL)
            """,
            "INSERT INTO oncue_store_version (one, version, changed_at) VALUES (true, 1, now())",
            "INSERT INTO oncue_meta (key, value) VALUES ('application', 'oncue')",
        ],
        // Version 2 re-keys locations in code (`rekeyDerivedIds`), after this step's statements (none).
        [],
        // Version 3: a brand network's Wikidata id.
        ["ALTER TABLE networks ADD COLUMN IF NOT EXISTS wikidata text"],
        // Version 4: a location's OpenStreetMap opening_hours.
        ["ALTER TABLE locations ADD COLUMN IF NOT EXISTS opening_hours text"],
        // Version 5: the point as `geometry` rather than `geography`. Its GiST index has sort support, so it is built by
        // sorting (2 s for a million points where the geography one took 8.6 s), and nothing the store asks needs the
        // geography index: nearest queries rank candidates by OnCue's own great-circle distance (`nearby`). No
        // B-tree on the geohash either: no query of this store reads by it (the SQLite store's scans do).
        // Each statement may run again on a store already there (as every step's may).
        [
            """
            DO $$ BEGIN
                IF EXISTS (SELECT 1 FROM information_schema.columns
                           WHERE table_schema = current_schema() AND table_name = 'locations' AND column_name = 'geog') THEN
                    DROP INDEX IF EXISTS locations_geog;
                    ALTER TABLE locations ALTER COLUMN geog TYPE geometry(Point, 4326) USING geog::geometry;
                    ALTER TABLE locations RENAME COLUMN geog TO geom;
                END IF;
            END $$
            """,
            "DROP INDEX IF EXISTS locations_by_geohash",
            "CREATE INDEX IF NOT EXISTS locations_geom ON locations USING gist (geom)",
        ],
        // Version 6: what changed since a version (`ChangeTracking`, see `changes(since:limit:)`). Every location written
        // stores the version of its transaction, which each change transaction takes first (`noteChange`, holding the
        // version row until it commits, so versions commit in order); a deleted location leaves a tombstone (a
        // statement trigger, so that no delete path can forget it). A BRIN index reads the rows after a version: new
        // versions land at the table's end, and it costs an import next to nothing to keep. `tracked_from` is the
        // oldest version changes can be asked from.
        [
            "ALTER TABLE locations ADD COLUMN IF NOT EXISTS change_version bigint NOT NULL DEFAULT 0",
            "CREATE INDEX IF NOT EXISTS locations_by_change ON locations USING brin (change_version)",
            """
            CREATE TABLE IF NOT EXISTS location_tombstones (
                id text COLLATE "C" PRIMARY KEY,
                change_version bigint NOT NULL)
            """,
            "CREATE INDEX IF NOT EXISTS location_tombstones_by_change ON location_tombstones (change_version)",
            "ALTER TABLE oncue_store_version ADD COLUMN IF NOT EXISTS tracked_from bigint NOT NULL DEFAULT 0",
            "UPDATE oncue_store_version SET version = version + 1, tracked_from = version + 1, changed_at = now()",
            """
            CREATE OR REPLACE FUNCTION oncue_leave_tombstones() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO location_tombstones (id, change_version)
                SELECT o.id, v.version FROM oncue_deleted_rows o CROSS JOIN oncue_store_version v
                ON CONFLICT (id) DO UPDATE SET change_version = EXCLUDED.change_version;
                RETURN NULL;
            END $$
            """,
            "DROP TRIGGER IF EXISTS locations_leave_tombstones ON locations",
            """
            CREATE TRIGGER locations_leave_tombstones AFTER DELETE ON locations
            REFERENCING OLD TABLE AS oncue_deleted_rows FOR EACH STATEMENT EXECUTE FUNCTION oncue_leave_tombstones()
            """,
        ],
        // Version 7: one key for (network, external id). A location's id is `loc_<network>_<external id>`: with a check
        // that holds every row to it, the primary key makes the pair unique, and the unique index that said the same
        // again (1.3 s of a million-row load to build) goes. A network's rows are read through the primary key, as the
        // id range its ids share (`networkIdRange`).
        [
            "ALTER TABLE locations DROP CONSTRAINT IF EXISTS \(idNamesNetworkAndExternal.name)",
            "ALTER TABLE locations ADD CONSTRAINT \(idNamesNetworkAndExternal.name) \(idNamesNetworkAndExternal.check)",
            "ALTER TABLE locations DROP CONSTRAINT IF EXISTS locations_network_id_external_id_key",
        ],
        // Version 8: how far the true place may lie from the point (`Location.positionUncertaintyMeters`), and a
        // geocoder's measure of it (its answer's bounding box).
        [
            "ALTER TABLE locations ADD COLUMN IF NOT EXISTS uncertainty_m double precision CHECK (uncertainty_m >= 0)",
            "ALTER TABLE geocode_cache ADD COLUMN IF NOT EXISTS uncertainty_m double precision",
        ],
        // Version 9: the largest explicit radius and position uncertainty from an index (`largestStoredRadius`), so that
        // an index for one place knows how far a region can reach into it. Partial: most rows have neither.
        [
            "CREATE INDEX IF NOT EXISTS locations_with_radius ON locations (radius_m) WHERE radius_m IS NOT NULL",
            "CREATE INDEX IF NOT EXISTS locations_with_uncertainty ON locations (uncertainty_m) WHERE uncertainty_m IS NOT NULL",
        ],
        // Version 10: admin keys (hashed) and the audit log of admin writes (`AccessLedger`).
        [
            """
            CREATE TABLE IF NOT EXISTS admin_keys (
                id text COLLATE "C" PRIMARY KEY,
                name text NOT NULL,
                role text NOT NULL CHECK (role IN ('read', 'import', 'admin')),
                secret_sha256 text NOT NULL UNIQUE,
                created_at timestamptz NOT NULL,
                revoked_at timestamptz)
            """,
            """
            CREATE TABLE IF NOT EXISTS audit_log (
                id bigserial PRIMARY KEY,
                at timestamptz NOT NULL,
                key_id text NOT NULL,
                action text NOT NULL,
                target text NOT NULL,
                result text NOT NULL,
                detail text)
            """,
        ],
    ]

    /// `Location.makeId` as a check on every row, so that the primary key on the id is a key on (network, external id).
    static let idNamesNetworkAndExternal = (
        name: "locations_id_names_network_and_external",
        check: "CHECK (id = 'loc_' || network_id || '_' || external_id)"
    )

    /// The ids of a network's locations, as a half-open range of the primary key in its "C" (byte) order: every id
    /// of the network starts `loc_<network>_`, and network ids have no `_` (`Network.slug`), so no other network's
    /// ids fall in between; the range ends before `loc_<network>` followed by the byte after `_` (a backquote).
    static func networkIdRange(_ networkId: String) -> (lower: String, upper: String) {
        ("loc_\(networkId)_", "loc_\(networkId)`")
    }

    /// `(column >= $1 AND column < $2) OR …` over the networks' id ranges, their bounds bound as values: the planner
    /// then sees each range and reads a small network through the primary key, a large one by scanning, and a
    /// statement that joins the rows with the import's staging table hashes that table once, whatever the number of
    /// networks.
    static func appendNetworkIdRanges(_ networkIds: [String], column: String, to sql: inout PostgresQuery.StringInterpolation) {
        sql.appendLiteral("(")
        for (i, id) in Set(networkIds).sorted().enumerated() {
            let (lower, upper) = networkIdRange(id)
            sql.appendLiteral(i == 0 ? "(\(column) >= " : " OR (\(column) >= ")
            sql.appendInterpolation(lower)
            sql.appendLiteral(" AND \(column) < ")
            sql.appendInterpolation(upper)
            sql.appendLiteral(")")
        }
        sql.appendLiteral(")")
    }

    /// The indexes of `locations` that `verify()` expects.
    static let locationIndexes = ["locations_pkey", "locations_geom"]

    /// The indexes a bulk load into a (nearly) empty table drops and builds again at its end, in one sorted pass each
    /// instead of a million inserts: name, and the statement that builds it. The primary key goes too when the table
    /// was empty (nothing for an upsert to conflict with).
    static let bulkIndexes: [(name: String, create: String)] = [
        // With no options PostgreSQL builds a GiST whose operator class has sort support by sorting the points.
        ("locations_geom", "CREATE INDEX locations_geom ON locations USING gist (geom)")
    ]
    static let bulkConstraints: [(name: String, create: String)] = [
        // Checked row by row, the foreign key was most of the server's time in a million-row COPY; added back, it is
        // validated in one join.
        (
            "locations_network_id_fkey",
            "ALTER TABLE locations ADD CONSTRAINT locations_network_id_fkey FOREIGN KEY (network_id) REFERENCES networks(id)"
        )
    ]
    static let primaryKey = (name: "locations_pkey", create: "ALTER TABLE locations ADD CONSTRAINT locations_pkey PRIMARY KEY (id)")

    /// The channel every committed change is announced on, with the new store version as payload.
    static let changeChannel = "oncue_store_changed"
}
