import CSQLite
import Foundation
import Geo
import LocationStore

/// The embedded store: one SQLite file with SpatiaLite, in WAL mode.
///
/// An instance owns one connection and is confined to one task (it is not Sendable); open another
/// instance on the same file for another task. Readers and one writer may work at the same time.
public final class SQLiteLocationStore: LocationStore {
    public let path: String
    let db: SQLiteConnection
    /// Reads map up to this much of the file (queries then copy no pages).
    static let mmapBytes = 1 << 30
    /// The page cache of a connection (64 MiB).
    static let cacheKiB = 65_536
    /// What a checkpointed write-ahead log is cut back to (64 MiB).
    static let walKeptBytes = 64 << 20
    /// The state of the bulk import in progress, if any.
    var bulk: BulkImportState?
    /// Near-duplicate searches (`neighbours`) since the store was opened or last reused, and the index rows they read: the work a
    /// dense area costs an import, which a search stopping at its first few hits keeps to a few rows each.
    public internal(set) var neighbourSearches = (searches: 0, rowsRead: 0)
    /// Set by a bulk import that moved temporary files to disk (see `sortToFiles`); SQLite allows moving them
    /// back only outside a transaction.
    var restoreTempStoreAfterTransaction = false
    /// Set by a use that opened the temporary database (a network move's table): once it is open, a later bulk import
    /// on this connection could no longer move temporary files to disk (`sortToFiles`), so `suspend` closes it.
    var temporaryDatabaseOpened = false

    /// Opens an existing store. Checks that the file is SQLite and an OnCue store of a schema this
    /// build understands before anything is written; upgrades an older schema in one transaction.
    public init(path: String, readOnly: Bool = false) throws(StoreError) {
        self.path = path
        try Self.checkIsSQLiteFile(path)
        db = try SQLiteConnection(path: path, mode: readOnly ? .readOnly : .readWrite)
        let appId: Int64
        do { appId = try db.scalarInt("PRAGMA application_id") ?? 0 } catch { throw Self.classify(error, path: path) }
        guard appId == SQLiteSchema.applicationId else { throw .notOnCueStore(path: path) }
        let version = Int(try db.scalarInt("PRAGMA user_version") ?? 0)
        guard version <= SQLiteSchema.currentVersion else {
            throw .newerSchema(path: path, found: version, supported: SQLiteSchema.currentVersion)
        }
        try db.loadSpatiaLite()
        try configure(readOnly: readOnly)
        if version < SQLiteSchema.currentVersion {
            guard !readOnly else { throw .invalidArgument("\(path) needs a schema upgrade; open it read-write once") }
            try migrate(from: version)
        }
        // The checks' reads stop on their row; left so, they would hold the store's state at opening for every
        // later read.
        db.resetAllStatements()
    }

    /// The page size of a new store.
    static let pageBytes = 8_192

    /// Creates a new, empty store at `path`. Fails if anything exists there already.
    public static func create(path: String) throws(StoreError) -> SQLiteLocationStore {
        if FileManager.default.fileExists(atPath: path) { throw .alreadyExists(path: path) }
        do throws(StoreError) {
            let db = try SQLiteConnection(path: path, mode: .readWriteCreate)
            try db.loadSpatiaLite()
            // Before the first page is written, after which it is fixed. Twice SQLite's default: the indexes take rows
            // in random key order, and with pages of 8 KiB a million-row import into them took 16 % less time (fewer
            // page splits and levels).
            try db.execute("PRAGMA page_size = \(Self.pageBytes)")
            try db.execute("PRAGMA journal_mode = WAL")
            let scope = try db.begin()
            do throws(StoreError) {
                try db.execute("PRAGMA application_id = \(SQLiteSchema.applicationId)")
                try db.commit(scope)
            } catch {
                db.rollback(scope)
                throw error
            }
        } catch {
            removeStoreFiles(path)
            throw error
        }
        do throws(StoreError) {
            return try SQLiteLocationStore(path: path)
        } catch {
            removeStoreFiles(path)
            throw error
        }
    }

    private static func removeStoreFiles(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    private func configure(readOnly: Bool) throws(StoreError) {
        try db.execute("PRAGMA foreign_keys = ON")
        // Statement journals follow temp_store. On disk, every row of a bulk import (its triggers keep the
        // SpatiaLite index) wrote ~20 pages to a journal file: 9× slower imports. In memory they hold one
        // statement's pages at a time.
        try db.execute("PRAGMA temp_store = MEMORY")
        try db.execute("PRAGMA mmap_size = \(Self.mmapBytes)")
        try db.execute("PRAGMA cache_size = -\(Self.cacheKiB)")
        if !readOnly {
            try db.execute("PRAGMA journal_mode = WAL")
            try db.execute("PRAGMA synchronous = NORMAL")
            // A connection kept open (the server's) never deletes the write-ahead log, which would otherwise keep the
            // size of the largest import; once checkpointed, it is cut back to this.
            try db.execute("PRAGMA journal_size_limit = \(Self.walKeptBytes)")
        }
    }

    private func migrate(from version: Int) throws(StoreError) {
        let scope = try db.begin()
        do throws(StoreError) {
            // Re-read under the write lock: another process may have migrated meanwhile.
            let now = Int(try db.scalarInt("PRAGMA user_version") ?? 0)
            for step in now..<SQLiteSchema.currentVersion {
                try SQLiteSchema.migrate(db, step: step)
                try db.execute("PRAGMA user_version = \(step + 1)")
            }
            try db.commit(scope)
        } catch {
            db.rollback(scope)
            throw error
        }
    }

    /// Refuses what cannot be a store before SQLite opens it: nothing there, a directory, an empty file (which SQLite
    /// would take for a new database). The header itself is read by SQLite, which refuses a file that is not a database
    /// at its first read (NOTADB, see `classify`) without writing to it. Reading it here would open and close the file
    /// outside SQLite, and closing any descriptor of a file drops every POSIX lock the process holds on it, those of
    /// its connections already open included: another process would then find no reader, take the file for itself,
    /// checkpoint and delete the write-ahead log those connections still use (their next read: "file is not a
    /// database"). A server keeps its connections open, and opens another while they are.
    static func checkIsSQLiteFile(_ path: String) throws(StoreError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .fileNotFound(path: path) }
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        guard !isDirectory.boolValue, size > 0 else { throw .notSQLite(path: path) }
    }

    static func classify(_ error: StoreError, path: String) -> StoreError {
        if case .sqlite(let code, _) = error, code & 0xFF == SQLITE_NOTADB { return .notSQLite(path: path) }
        return error
    }

    public var schemaVersion: Int { Int((try? db.scalarInt("PRAGMA user_version")) ?? 0) }

    // MARK: Transactions

    /// Runs `body` in one transaction: all its writes commit together or none does.
    /// Nested calls become savepoints.
    public func transaction<T>(_ body: () async throws -> T) async throws -> T {
        let scope = try db.begin()
        defer { if scope == .transaction { restoreTempStore() } }
        do {
            let value = try await body()
            try db.commit(scope)
            return value
        } catch {
            db.rollback(scope)
            throw error
        }
    }

    private func restoreTempStore() {
        guard restoreTempStoreAfterTransaction else { return }
        restoreTempStoreAfterTransaction = false
        try? db.execute("PRAGMA temp_store = MEMORY")
    }

    /// The synchronous form of `transaction`, for code that needs no suspension inside.
    func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        let outermost = !db.isInTransaction
        defer { if outermost { restoreTempStore() } }
        return try db.transaction(body)
    }

    // MARK: Checks

    /// `PRAGMA integrity_check`, SpatiaLite's `CheckSpatialMetaData()` and `CheckSpatialIndex()`, and SQLite's
    /// `rtreecheck()`; returns the problems found (empty = healthy).
    public var consistencyChecks: [String] { ["integrity_check", "CheckSpatialMetaData", "CheckSpatialIndex"] }

    public func verify() throws(StoreError) -> [String] {
        var problems: [String] = []
        let s = try db.statement("PRAGMA integrity_check")
        while try s.step() {
            let line = s.text(0)
            if line != "ok" { problems.append(line) }
        }
        let indexes = try db.statement("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?1")
        for name in SQLiteSchema.locationIndexes {
            indexes.reset()
            indexes.bind(1, name)
            if try !indexes.step() { problems.append("index \(name) is missing") }
        }
        indexes.reset()
        // 3 = SpatiaLite 4+ metadata layout.
        let layout = try db.scalarInt("SELECT CheckSpatialMetaData()") ?? 0
        if layout != 3 { problems.append("CheckSpatialMetaData() = \(layout), expected 3") }
        let index = try db.scalarInt("SELECT CheckSpatialIndex('locations', 'geom')") ?? 0
        if index != 1 { problems.append("CheckSpatialIndex('locations', 'geom') = \(index), expected 1") }
        // SQLite's own structural check of the R*Tree (node bounds, parent and rowid maps, depth).
        let rtree = try db.scalarText("SELECT rtreecheck('idx_locations_geom')") ?? "no answer"
        if rtree != "ok" { problems.append("rtreecheck('idx_locations_geom'): \(rtree)") }
        return problems
    }

    static func timestamp(_ date: Date = Date()) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    static func parseTimestamp(_ text: String) -> Date? {
        try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }
}

extension SQLiteLocationStore: GeocodeCache {}

extension SQLiteLocationStore {
    /// A file store closes with its last reference.
    public func close() async {}
}
