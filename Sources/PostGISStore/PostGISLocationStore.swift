import Foundation
import Geo
import LocationStore
import Logging
import PostgresNIO
import Synchronization

/// The scale-out store: PostgreSQL with PostGIS. Many `oncue serve` replicas share one database; each builds its
/// in-memory index from it and rebuilds when a committed change is announced (`NOTIFY`, see `changeChannel`).
///
/// Like `SQLiteLocationStore`, an instance owns one connection and belongs to one task; close it with `close()`.
/// Locations carry a `geometry(Point, 4326)` column with a GiST index and the same precision-12 geohash column as the
/// SQLite store; both answer `nearby` alike because both rank by OnCue's own haversine distance.
public final class PostGISLocationStore: LocationStore {
    public let url: PostgresURL
    let connection: PostgresConnection
    let logger: Logger
    public private(set) var schemaVersion = 0
    /// Opened to write: a kept connection then serves again only on a primary (`resume`), since after a failover the
    /// host its URL names may have come back as a standby.
    private(set) var opensForWriting = true

    private init(url: PostgresURL, connection: PostgresConnection, logger: Logger) {
        self.url = url
        self.connection = connection
        self.logger = logger
    }

    /// Opens an existing store: refuses a database that is not an OnCue store or has a newer schema, before writing
    /// anything; upgrades an older schema in one transaction unless `readOnly` (a hot standby is read-only).
    public static func open(
        _ url: PostgresURL, readOnly: Bool = false, logger: Logger = Logger(label: "oncue.postgis")
    ) async throws
        -> PostGISLocationStore
    {
        let store = try await connect(url, logger: logger)
        do {
            guard let version = try await store.recordedVersion() else {
                throw try await store.isEmptyDatabase()
                    ? StoreError.invalidArgument("\(url) has no OnCue store yet (create one with `oncue db init --db \(url)`)")
                    : StoreError.notOnCueDatabase(url.description)
            }
            guard version <= PostGISSchema.currentVersion else {
                throw StoreError.newerSchema(path: url.description, found: version, supported: PostGISSchema.currentVersion)
            }
            if version < PostGISSchema.currentVersion {
                guard !readOnly else { throw StoreError.invalidArgument("\(url) needs a schema upgrade; open it read-write once") }
                try await store.migrate(from: version)
            }
            store.schemaVersion = PostGISSchema.currentVersion
            store.opensForWriting = !readOnly
            return store
        } catch {
            await store.close()
            throw error
        }
    }

    /// Creates the OnCue schema in an existing, empty database (`CREATE EXTENSION postgis` when it is missing and
    /// allowed). Refuses a database that already is an OnCue store or holds tables of its own.
    public static func create(_ url: PostgresURL, logger: Logger = Logger(label: "oncue.postgis")) async throws -> PostGISLocationStore {
        let store = try await connect(url, logger: logger)
        do {
            if try await store.recordedVersion() != nil { throw StoreError.alreadyExists(path: url.description) }
            guard try await store.isEmptyDatabase() else { throw StoreError.notOnCueDatabase(url.description) }
            try await store.ensurePostGIS()
            try await store.migrate(from: 0)
            store.schemaVersion = PostGISSchema.currentVersion
            return store
        } catch {
            await store.close()
            throw error
        }
    }

    static func connect(_ url: PostgresURL, logger: Logger) async throws -> PostGISLocationStore {
        let connection: PostgresConnection
        do {
            connection = try await url.connect(id: Self.nextId(), logger: logger)
        } catch let error as PSQLError {
            throw Self.classify(error, url: url)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.unreachable("\(url): \(error)")
        }
        let store = PostGISLocationStore(url: url, connection: connection, logger: logger)
        // OnCue's statements are lookups, batched writes and one streaming read per index build, none long enough to
        // repay LLVM's compile. PostgreSQL compiles any plan whose estimated cost passes `jit_above_cost`, and an
        // import's near-existing probe over a thousand networks (a range of ids each) is estimated high and runs in
        // milliseconds: it spent 14 s in JIT optimisation and emission on a re-import of the fast-food chains.
        do {
            try await store.query("SET jit = off")
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// The bulk writes of an import, on this store's connection (see `PostGISBulkWriter`).
    public var bulkWriter: PostGISBulkWriter { PostGISBulkWriter(connection: connection, logger: logger, url: url) }

    private static let ids = Mutex(0)
    private static func nextId() -> Int {
        ids.withLock {
            $0 += 1
            return $0
        }
    }

    public func close() async {
        try? await connection.close()
    }

    // MARK: Queries

    /// Runs a query and maps PostgreSQL's errors to `StoreError` (the server's message, never the URL's password).
    @discardableResult
    func query(_ query: PostgresQuery, file: String = #fileID, line: Int = #line) async throws -> PostgresRowSequence {
        try await Self.run(query, on: connection, logger: logger, url: url, file: file, line: line)
    }

    /// A query on a connection, with PostgreSQL's errors mapped to `StoreError` (shared with `PostGISBulkWriter`).
    static func run(
        _ query: PostgresQuery, on connection: PostgresConnection, logger: Logger, url: PostgresURL,
        file: String, line: Int
    ) async throws -> PostgresRowSequence {
        try refuseIfClosed(connection, url: url)
        do {
            return try await connection.query(query, logger: logger, file: file, line: line)
        } catch let error as PSQLError {
            throw await failure(error, on: connection, url: url)
        }
    }

    /// Runs a query and collects its rows.
    func rows(_ query: PostgresQuery, file: String = #fileID, line: Int = #line) async throws -> [PostgresRow] {
        try Self.refuseIfClosed(connection, url: url)
        do {
            var out: [PostgresRow] = []
            for try await row in try await connection.query(query, logger: logger, file: file, line: line) { out.append(row) }
            return out
        } catch let error as PSQLError {
            throw await Self.failure(error, on: connection, url: url)
        }
    }

    /// SQLSTATEs after which a connection serves no further use: the member it reaches has become a standby
    /// (25006, read_only_sql_transaction, as after a failover), or is shutting down or starting (57P01 admin_shutdown,
    /// 57P02 crash_shutdown, 57P03 cannot_connect_now). A new connection may reach the new primary; this one never will.
    static let connectionEndingStates: Set<String> = ["25006", "57P01", "57P02", "57P03"]

    /// PostgresNIO 1.33.2 never answers a query started on a connection it has seen closed (by the server, or by
    /// `failure` below), so such a query is refused here instead: a transaction's ROLLBACK after a failure that closed
    /// the connection would otherwise wait for ever.
    static func refuseIfClosed(_ connection: PostgresConnection, url: PostgresURL) throws {
        guard connection.isClosed else { return }
        throw StoreError.unreachable("\(url): the connection was closed")
    }

    /// The `StoreError` for a failed query; the connection is closed first when the failure means it is no use.
    static func failure(_ error: PSQLError, on connection: PostgresConnection, url: PostgresURL) async -> StoreError {
        if let state = error.serverInfo?[.sqlState], connectionEndingStates.contains(state) { try? await connection.close() }
        return classify(error, url: url)
    }

    static func classify(_ error: PSQLError, url: PostgresURL) -> StoreError {
        if let info = error.serverInfo {
            let state = info[.sqlState] ?? "?"
            let message = info[.message] ?? "\(error.code)"
            // A deadlock, a lock not granted in time, a serialization failure: another writer's transaction won.
            if ["40P01", "55P03", "40001"].contains(state) { return .busy("PostgreSQL \(state): \(message)") }
            if state == "25006" {
                return .readOnly("\(url) is a read-only standby now (PostgreSQL 25006), as during a failover; writes go to the primary")
            }
            if ["57P01", "57P02", "57P03"].contains(state) {
                return .unreachable("\(url): PostgreSQL is shutting down or starting up (\(state): \(message))")
            }
            return .postgres(state: state, message: message)
        }
        switch error.code {
        case .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
            // The cause (refused, reset, timed out) is what an operator needs; PSQLError's own text hides it.
            let cause = error.underlying.map { ": \($0)" } ?? ""
            return .unreachable("\(url): the connection failed or was closed (\(error.code)\(cause))")
        default:
            return .unreachable("\(url): \(error.code)")
        }
    }

    // MARK: Transactions

    /// Runs `body` in one transaction (a savepoint inside another): its writes commit together or not at all.
    /// A transaction PostgreSQL ended as rolled back (a statement in it failed and `body` went on) throws rather
    /// than pass for committed.
    public func transaction<T>(_ body: () async throws -> T) async throws -> T {
        let parent = PostGISTransaction.open[connection.id]
        let scope = PostGISTransaction(parent: parent)
        try await query(parent == nil ? "BEGIN" : PostgresQuery(unsafeSQL: "SAVEPOINT \(scope.savepoint)"))
        do {
            var open = PostGISTransaction.open
            open[connection.id] = scope
            let value = try await PostGISTransaction.$open.withValue(open) { try await body() }
            if parent == nil {
                try await commit()
            } else {
                // PostgreSQL refuses RELEASE once a failed statement aborted the transaction: then the savepoint is
                // rolled back below, and the scope around it goes on from where it opened this one.
                try await query(PostgresQuery(unsafeSQL: "RELEASE SAVEPOINT \(scope.savepoint)"))
                scope.released()
            }
            return value
        } catch {
            if parent == nil {
                // After a failed COMMIT there is no transaction left, and this ROLLBACK only draws a warning. A
                // connection whose transaction may still be open never serves another use.
                if (try? await query("ROLLBACK")) == nil { try? await connection.close() }
            } else {
                _ = try? await query(PostgresQuery(unsafeSQL: "ROLLBACK TO SAVEPOINT \(scope.savepoint)"))
                _ = try? await query(PostgresQuery(unsafeSQL: "RELEASE SAVEPOINT \(scope.savepoint)"))
            }
            throw error
        }
    }

    /// PostgreSQL answers COMMIT of a transaction in which a statement failed with ROLLBACK, and no error.
    private func commit() async throws {
        let command: String
        do {
            try Self.refuseIfClosed(connection, url: url)
            command = try await connection.query("COMMIT", logger: logger).get().metadata.command
        } catch let error as PSQLError {
            throw await Self.failure(error, on: connection, url: url)
        }
        guard command == "COMMIT" else {
            throw StoreError.postgres(
                state: "25P02", message: "the transaction was rolled back, not committed: a statement in it had failed")
        }
    }

    // MARK: Schema

    /// The schema version recorded in `oncue_meta`, nil when the database has no OnCue schema.
    func recordedVersion() async throws -> Int? {
        let exists = try await rows("SELECT to_regclass('public.oncue_meta') IS NOT NULL")
        guard let first = exists.first, try first.decode(Bool.self) else { return nil }
        let version = try await rows("SELECT value FROM oncue_meta WHERE key = 'schema_version'")
        return try version.first.flatMap { Int(try $0.decode(String.self)) } ?? 0
    }

    /// No table of its own in `public` (PostGIS's `spatial_ref_sys` does not count).
    func isEmptyDatabase() async throws -> Bool {
        let tables = try await rows(
            """
            SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'spatial_ref_sys'
            """)
        return try tables.first?.decode(Int.self) == 0
    }

    func ensurePostGIS() async throws {
        let installed = try await rows("SELECT count(*) FROM pg_extension WHERE extname = 'postgis'")
        if try installed.first?.decode(Int.self) ?? 0 > 0 { return }
        let available = try await rows("SELECT count(*) FROM pg_available_extensions WHERE name = 'postgis'")
        guard try available.first?.decode(Int.self) ?? 0 > 0 else {
            throw StoreError.postgisUnavailable("the server has no postgis extension to install")
        }
        do {
            try await query("CREATE EXTENSION IF NOT EXISTS postgis")
        } catch let StoreError.postgres(state, message) where Self.meansNoPostGIS(state) {
            throw StoreError.postgisUnavailable("CREATE EXTENSION postgis failed: \(state) \(message)")
        }
    }

    /// Only a missing privilege or missing extension files mean "install PostGIS"; a server out of resources
    /// (class 53, e.g. the lock table CREATE EXTENSION fills) keeps its own error, which names what ran out.
    static func meansNoPostGIS(_ state: String) -> Bool {
        ["42501", "58P01", "0A000", "42704"].contains(state)
    }

    func migrate(from version: Int) async throws {
        try await transaction {
            for step in version..<PostGISSchema.currentVersion {
                for statement in PostGISSchema.steps[step] { try await query(PostgresQuery(unsafeSQL: statement)) }
                if step == 1 { try await rekeyDerivedIds() }
            }
            let target = String(PostGISSchema.currentVersion)
            try await query(
                """
                INSERT INTO oncue_meta (key, value) VALUES ('schema_version', \(target))
                ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
                """)
        }
    }

    // MARK: Store version

    /// The number bumped by every committed change the engine serves (see `oncue_store_version`).
    public func storeVersion() async throws -> Int64 {
        try await rows("SELECT version FROM oncue_store_version").first?.decode(Int64.self) ?? 0
    }

    /// The open transaction's change version, taken before its first change: bumps the version row, which then stays
    /// locked until the transaction ends, so that a later change transaction takes the next version only after this
    /// one committed (versions commit in order, and a reader that sees version V sees every row written up to V).
    /// Rows written store it; tombstones get it from their trigger.
    func noteChange() async throws -> Int64 {
        let scope = PostGISTransaction.open[connection.id]
        if let version = scope?.changeVersion { return version }
        let rows = try await rows("UPDATE oncue_store_version SET version = version + 1, changed_at = now() RETURNING version")
        let version = try rows.first?.decode(Int64.self) ?? 0
        scope?.noteTaken(version)
        if version % ChangeHistory.pruneEvery == 0 { try await pruneChangeHistory(keeping: ChangeHistory.keptVersions, at: version) }
        return version
    }

    /// Forgets the tombstones of deletions more than `keeping` versions old, and says so in `tracked_from`: a replica
    /// that old builds its index afresh (it was down or far behind), and the table does not grow with every deletion
    /// ever made.
    public func pruneChangeHistory(keeping: Int64, at version: Int64) async throws {
        let horizon = version - keeping
        guard horizon > 0 else { return }
        try await query("DELETE FROM location_tombstones WHERE change_version <= \(horizon)")
        try await query("UPDATE oncue_store_version SET tracked_from = greatest(tracked_from, \(horizon))")
    }

    /// Announces the transaction's change on `changeChannel` with its version (taking one if no change took it yet).
    /// PostgreSQL delivers the notification when (and only if) the transaction commits.
    public func announceChange() async throws {
        let version = try await noteChange()
        try await query("SELECT pg_notify(\(PostGISSchema.changeChannel), \(String(version)))")
    }
}

extension PostGISLocationStore {
    /// Runs one statement on a database that need not be an OnCue store (creating or dropping databases: tests and
    /// tools). Statements come from the code, never from a request.
    public static func execute(on url: PostgresURL, _ sql: String, logger: Logger = Logger(label: "oncue.postgis")) async throws {
        let store = try await connect(url, logger: logger)
        do {
            try await store.query(PostgresQuery(unsafeSQL: sql))
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}

extension PostGISLocationStore {
    /// Calls `onChange` with the new store version each time a change commits anywhere, until the task is cancelled
    /// or the connection fails (then it throws, and the caller reconnects). PostgreSQL delivers `NOTIFY` only on
    /// the primary: a hot standby cannot `LISTEN`.
    public func listenForChanges(_ onChange: @Sendable (Int64) -> Void) async throws {
        try Self.refuseIfClosed(connection, url: url)
        do {
            try await connection.listen(on: PostGISSchema.changeChannel) { notifications in
                for try await notification in notifications { onChange(Int64(notification.payload) ?? 0) }
            }
        } catch let error as PSQLError {
            throw await Self.failure(error, on: connection, url: url)
        }
    }
}

extension PostGISLocationStore: ChangeAnnouncing {}
