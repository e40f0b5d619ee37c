import LocationStore
import Logging
import PostgresNIO
import Synchronization

/// A PostgreSQL connection serves use after use in the server's pool, as a SQLite one does: no use pays for a new
/// connection (TCP, authentication, the schema's checks), every replica's 5-second poll included.
///
/// Two things make a kept connection riskier than a new one, and `resume` answers both before each use. A host that
/// vanished without a word would hold a query until TCP gives up, where a new connection fails within
/// `connect_timeout`; and PostgresNIO 1.33.2 never answers a query started on a connection it has already seen
/// closed. So a kept connection serves again only if it is open and reads the schema version within the same
/// `connect_timeout`; otherwise it is closed, and the pool opens a new one, which fails as fast as it always did.
extension PostGISLocationStore: ReusableStore {
    /// False while this task has a transaction open on the connection (`PostGISTransaction`): the transaction ends
    /// with the body that opened it, so a use that has returned has none; and false once the connection is closed.
    public func suspend() -> Bool {
        !connection.isClosed && PostGISTransaction.open[connection.id] == nil
    }

    /// The same read also notices another build upgrading the schema while the connection waited: a store is opened
    /// anew then, and `open` refuses a newer schema as it does on any other start.
    ///
    /// A store opened to write also needs the connection on a primary: after a failover the host its URL names (or the
    /// member a balancer sent it to) may be a standby, where every write would fail with 25006.
    public func resume() async -> Bool {
        guard !connection.isClosed else { return false }
        guard let (version, inRecovery) = await Self.schemaVersion(of: connection, within: url.connectTimeout, logger: logger)
        else { return false }
        if opensForWriting && inRecovery {
            logger.notice("a kept PostgreSQL connection reaches a standby now (a failover?); it is closed and another opened")
            return false
        }
        return version == schemaVersion
    }

    /// `oncue_meta`'s schema version and whether the server is a standby (`pg_is_in_recovery()`), or nil when the
    /// connection fails, or does not answer within `limit` (then it is closed, which also ends the read).
    static func schemaVersion(
        of connection: PostgresConnection, within limit: Duration, logger: Logger
    ) async -> (version: Int, inRecovery: Bool)? {
        let answer = FirstAnswer<(version: Int, inRecovery: Bool)?>()
        return await withCheckedContinuation { continuation in
            answer.wait(continuation)
            let deadline = Task {
                try? await Task.sleep(for: limit)
                guard !Task.isCancelled, answer.give(nil) else { return }
                logger.warning("a kept PostgreSQL connection did not answer in time; it is closed and another opened")
                try? await connection.close()
            }
            // Not a child task: in the race above, the read itself might never return, and nothing may wait for it.
            Task {
                let version = try? await Self.recordedVersion(on: connection, logger: logger)
                answer.give(version)
                deadline.cancel()
            }
        }
    }

    /// The server process behind this connection: which connection it is, as PostgreSQL sees it (tests).
    func backendProcess() async throws -> Int32 {
        try await rows("SELECT pg_backend_pid()").first?.decode(Int32.self) ?? 0
    }

    private static func recordedVersion(on connection: PostgresConnection, logger: Logger) async throws -> (version: Int, inRecovery: Bool)? {
        let rows = try await connection.query(
            "SELECT value, pg_is_in_recovery() FROM oncue_meta WHERE key = 'schema_version'", logger: logger)
        for try await (value, inRecovery) in rows.decode((String, Bool).self) { return Int(value).map { ($0, inRecovery) } }
        return nil
    }
}

/// Resumes a continuation with the first value given, once.
private final class FirstAnswer<Value: Sendable>: Sendable {
    private let waiting = Mutex<CheckedContinuation<Value, Never>?>(nil)

    func wait(_ continuation: CheckedContinuation<Value, Never>) {
        waiting.withLock { $0 = continuation }
    }

    /// True when this was the first answer.
    @discardableResult
    func give(_ value: Value) -> Bool {
        guard let continuation = waiting.withLock({ $0.take() }) else { return false }
        continuation.resume(returning: value)
        return true
    }
}
