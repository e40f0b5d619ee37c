import Foundation
import HTTPTypes
import LocationStore
import Logging
import StoreOpening

/// How the server reaches its store: the primary for writes, a read replica (when given) for index builds and
/// read-only routes. Each use takes a store of its own for as long as it runs, a connection kept open between uses
/// (`StorePool`). Its errors stay `StoreError`s: the routes' error middleware says what each means over HTTP (a store
/// that cannot be reached is a 503 with a retry time).
struct StoreAccess: Sendable {
    let primary: StoreAddress
    let reader: StoreAddress
    let logger: Logger
    let executors: ServerExecutors
    /// The stores kept open between uses; the server runs it as a service, which closes them at shutdown.
    let pool: StorePool

    init(database: String, readDatabase: String?, executors: ServerExecutors, logger: Logger) throws {
        do {
            primary = try StoreAddress(database)
            reader = try readDatabase.map { try StoreAddress($0) } ?? primary
        } catch let error as StoreError {
            throw ConfigurationError(error.description)
        }
        self.logger = logger
        self.executors = executors
        pool = StorePool { address, readOnly in try await address.open(readOnly: readOnly, logger: logger) }
    }

    /// Runs `body` with the primary store, read-write; long work (imports) goes on the rebuild thread, so that short
    /// admin reads and writes are not queued behind it.
    func withPrimary<T: Sendable>(long: Bool = false, _ body: @Sendable @escaping (any LocationStore) async throws -> T) async throws -> T {
        try await with(primary, readOnly: false, on: long ? executors.rebuilds : executors.storeAccess, body)
    }

    /// Runs `body` with the primary store, read-write, on the audit log's own thread.
    func withAudit<T: Sendable>(_ body: @Sendable @escaping (any LocationStore) async throws -> T) async throws -> T {
        try await with(primary, readOnly: false, on: executors.audit, body)
    }

    /// Runs `body` with the primary store, read-only: admin reads, so that an admin sees their own writes at once
    /// (a replica may not have them yet).
    func withPrimaryReading<T: Sendable>(_ body: @Sendable @escaping (any LocationStore) async throws -> T) async throws -> T {
        try await with(primary, readOnly: true, on: executors.storeAccess, body)
    }

    /// Runs `body` with the read replica (or the primary when there is none), read-only.
    func withReader<T: Sendable>(long: Bool = false, _ body: @Sendable @escaping (any LocationStore) async throws -> T) async throws -> T {
        try await with(reader, readOnly: true, on: long ? executors.rebuilds : executors.storeAccess, body)
    }

    private func with<T: Sendable>(
        _ address: StoreAddress, readOnly: Bool, on executor: BlockingWorkExecutor,
        _ body: @Sendable @escaping (any LocationStore) async throws -> T
    ) async throws -> T {
        let pool = pool
        let work: @Sendable () async throws -> T = { try await pool.with(address, readOnly: readOnly, body) }
        // SQLite blocks its thread; PostgresNIO does not, but its work still keeps off the request handlers' pool.
        return try await executor.run(work)
    }
}
