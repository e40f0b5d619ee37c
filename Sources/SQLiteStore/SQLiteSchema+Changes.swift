import LocationStore

extension SQLiteSchema {
    /// Version 6: what changed since a version, so that a server brings its index up to date by the change instead of
    /// reading every location again (`ChangeTracking`).
    ///
    /// `oncue_changes` holds the store's change version, bumped once by each transaction that changes what the engine
    /// serves (`SQLiteConnection.noteChange`); every location written stores the version it was written at, and a
    /// deleted one leaves a tombstone with the version of its deletion (a trigger, so that no delete path can forget
    /// it, renaming included). `tracked_from` is the oldest version changes can be asked from: a server whose index
    /// is older reads everything.
    static func addChangeTracking(_ db: SQLiteConnection) throws(StoreError) {
        let present = try db.scalarInt("SELECT count(*) FROM pragma_table_info('locations') WHERE name = 'change_version'") ?? 0
        if present == 0 { try db.execute("ALTER TABLE locations ADD COLUMN change_version INTEGER NOT NULL DEFAULT 0") }
        try db.execute(
            """
            CREATE INDEX IF NOT EXISTS locations_by_change ON locations(change_version);
            CREATE TABLE IF NOT EXISTS oncue_changes (
                one INTEGER PRIMARY KEY CHECK (one = 1),
                version INTEGER NOT NULL,
                tracked_from INTEGER NOT NULL
            );
            INSERT OR IGNORE INTO oncue_changes (one, version, tracked_from) VALUES (1, 1, 1);
            UPDATE oncue_changes SET version = version + 1, tracked_from = version + 1;
            CREATE TABLE IF NOT EXISTS location_tombstones (
                id TEXT PRIMARY KEY NOT NULL,
                change_version INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS location_tombstones_by_change ON location_tombstones(change_version);
            CREATE TRIGGER IF NOT EXISTS locations_leave_tombstones AFTER DELETE ON locations BEGIN
                INSERT OR REPLACE INTO location_tombstones (id, change_version) VALUES (OLD.id, (SELECT version FROM oncue_changes));
            END;
            CREATE TRIGGER IF NOT EXISTS locations_renamed_leave_tombstones AFTER UPDATE OF id ON locations WHEN OLD.id <> NEW.id BEGIN
                INSERT OR REPLACE INTO location_tombstones (id, change_version) VALUES (OLD.id, (SELECT version FROM oncue_changes));
            END;
            """)
    }

    /// What a location row's `change_version` is set to by the statements that write it: the transaction's version.
    static let currentChangeVersion = "(SELECT version FROM oncue_changes)"
}
