import LocationStore

/// The statements a bulk import runs for every row, prepared when it begins. Looked up by SQL text as the other
/// statements are (`SQLiteConnection.statement`), each row hashed and compared texts of up to 500 bytes. Every
/// parameter is bound on each use, so they are `rewind`-ed rather than reset.
struct BulkStatements {
    let insert: SQLiteStatement
    let update: SQLiteStatement
    /// A location's ROWID and whether its content equals the row's.
    let probe: SQLiteStatement
    let markSeen: SQLiteStatement
    let seenLine: SQLiteStatement
    let noteUpdated: SQLiteStatement

    init(db: SQLiteConnection, scratch: String) throws(StoreError) {
        insert = try db.statement(LocationRowSQL.insert)
        update = try db.statement(LocationRowSQL.update)
        probe = try db.statement(LocationRowSQL.probe)
        markSeen = try db.statement("INSERT INTO \(scratch).oncue_import_seen (id, line) VALUES (?1, ?2) ON CONFLICT(id) DO NOTHING")
        seenLine = try db.statement("SELECT line FROM \(scratch).oncue_import_seen WHERE id = ?1")
        noteUpdated = try db.statement("INSERT OR IGNORE INTO \(scratch).oncue_import_changed (location_rowid) VALUES (?1)")
    }
}
