import CSQLite
import LocationStore

/// One SQLite connection with SpatiaLite loaded. Not Sendable: it belongs to one owner at a time
/// (a store instance confined to one task), as SQLite handles must.
final class SQLiteConnection {
    let path: String
    private(set) var handle: OpaquePointer?
    private var statements: [String: SQLiteStatement] = [:]
    /// The change version the open transaction took (`noteChange`), if it took one: later changes in it store the
    /// same version instead of bumping it again.
    var changeVersionNoted: Int64?

    enum Mode { case readWrite, readWriteCreate, readOnly }

    /// Process-wide settings of the SQLite library, applied once before the first connection opens.
    private static let configureLibrary: Void = { _ = oncue_sqlite3_disable_memory_statistics() }()

    init(path: String, mode: Mode) throws(StoreError) {
        Self.configureLibrary
        self.path = path
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        switch mode {
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        handle = db
        guard rc == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(db)
            handle = nil
            // Opening for writing fails with CANTOPEN where the file or its folder (the WAL files live beside it) may
            // not be written; a reader can still open it read-only.
            if rc & 0xFF == SQLITE_CANTOPEN && mode == .readWrite { throw .readOnly("\(path): \(message)") }
            throw .sqlite(rc, "\(path): \(message)")
        }
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 10_000)
    }

    deinit {
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
    }

    /// Loads `mod_spatialite` (SpatiaLite 5) into this connection; extension loading is switched off again afterwards.
    func loadSpatiaLite() throws(StoreError) {
        guard let handle else { return }
        sqlite3_enable_load_extension(handle, 1)
        defer { sqlite3_enable_load_extension(handle, 0) }
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_load_extension(handle, "mod_spatialite", nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "error \(rc)"
            sqlite3_free(error)
            throw .spatialiteUnavailable(message)
        }
    }

    func execute(_ sql: String) throws(StoreError) {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? lastError
            sqlite3_free(error)
            throw .sqlite(rc, message)
        }
    }

    /// A prepared statement, cached by its SQL text and reset for reuse.
    func statement(_ sql: String) throws(StoreError) -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        let statement = try SQLiteStatement(connection: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Resets every cached statement, so that none holds a read on a table about to be dropped.
    func resetCachedStatements() {
        for statement in statements.values { statement.reset() }
    }

    /// Resets every statement of the connection, cached or not: one stepped but not to its end keeps its read
    /// transaction, and with it an old snapshot, open. A cache grown past `statementCacheLimit` (statements whose text
    /// varies) is emptied, so that a connection kept open for days does not grow without bound.
    func resetAllStatements() {
        if statements.count > Self.statementCacheLimit { statements.removeAll() }
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            sqlite3_reset(current)
            statement = sqlite3_next_stmt(handle, current)
        }
    }

    static let statementCacheLimit = 512

    /// The first column of the first row, or nil.
    func scalarInt(_ sql: String) throws(StoreError) -> Int64? {
        let s = try statement(sql)
        return try s.step() ? s.int64(0) : nil
    }

    func scalarText(_ sql: String) throws(StoreError) -> String? {
        let s = try statement(sql)
        return try s.step() ? s.text(0) : nil
    }

    var lastError: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed" }
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    var changes: Int { Int(sqlite3_changes(handle)) }
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}

/// A prepared statement. Binding indexes start at 1, column indexes at 0 (SQLite's convention).
final class SQLiteStatement {
    private var pointer: OpaquePointer?
    private unowned let connection: SQLiteConnection

    init(connection: SQLiteConnection, sql: String) throws(StoreError) {
        self.connection = connection
        let rc = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard rc == SQLITE_OK else { throw .sqlite(rc, "\(connection.lastError) in: \(sql)") }
    }

    deinit { sqlite3_finalize(pointer) }

    func reset() {
        sqlite3_reset(pointer)
        sqlite3_clear_bindings(pointer)
    }

    /// Resets the statement but keeps its bindings: for a statement whose every parameter is bound on each use.
    func rewind() { sqlite3_reset(pointer) }

    func bind(_ index: Int32, _ value: String?) {
        guard let value else {
            sqlite3_bind_null(pointer, index)
            return
        }
        // SQLITE_TRANSIENT: SQLite copies the bytes, so the Swift string may go away. With the length given, it does
        // not measure them first.
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        let bound = value.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                chars.baseAddress.map { sqlite3_bind_text(pointer, index, $0, Int32(chars.count), transient) }
            }
        }
        if bound ?? nil == nil { sqlite3_bind_text(pointer, index, value, -1, transient) }
    }

    func bind(_ index: Int32, _ value: Double?) {
        guard let value else {
            sqlite3_bind_null(pointer, index)
            return
        }
        sqlite3_bind_double(pointer, index, value)
    }

    func bind(_ index: Int32, _ value: Int64?) {
        guard let value else {
            sqlite3_bind_null(pointer, index)
            return
        }
        sqlite3_bind_int64(pointer, index, value)
    }

    func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(pointer, index, Int64(value)) }

    func bind(_ index: Int32, blob: [UInt8]) {
        blob.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob(pointer, index, bytes.baseAddress, Int32(bytes.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
    }

    /// Advances to the next row; false when done.
    @discardableResult
    func step() throws(StoreError) -> Bool {
        let rc = sqlite3_step(pointer)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw .sqlite(rc, connection.lastError)
        }
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(pointer, column) == SQLITE_NULL }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(pointer, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(pointer, column) }
    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
    func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(pointer, column) else { return "" }
        let count = Int(sqlite3_column_bytes(pointer, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    /// The column's text, or `previous` itself when the bytes are equal (saves a string per row for repeated values).
    func textReusing(_ column: Int32, previous: String) -> String {
        guard let bytes = sqlite3_column_text(pointer, column) else { return "" }
        let count = Int(sqlite3_column_bytes(pointer, column))
        let buffer = UnsafeBufferPointer(start: bytes, count: count)
        var same = previous.utf8.count == count
        if same {
            var i = 0
            for b in previous.utf8 {
                if b != buffer[i] {
                    same = false
                    break
                }
                i += 1
            }
        }
        return same ? previous : String(decoding: buffer, as: UTF8.self)
    }
}
