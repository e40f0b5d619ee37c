import Foundation
import HTTPTypes
import LocationStore
import Logging
import StoreOpening

/// How the server reaches its store: the primary for writes, a read replica (when given) for index builds and
/// read-only routes. Each use opens its own store (a SQLite connection on the blocking-work thread, or a PostgreSQL
/// connection) and closes it afterwards; a store that cannot be reached answers 503 with a retry time.
struct StoreAccess: Sendable {
    let primary: StoreAddress
    let reader: StoreAddress
    let logger: Logger

    init(database: String, readDatabase: String?, logger: Logger) throws {
        do {
            primary = try StoreAddress(database)
            reader = try readDatabase.map { try StoreAddress($0) } ?? primary
        } catch let error as StoreError {
            throw ConfigurationError(error.description)
        }
        self.logger = logger
    }

    /// Runs `body` with the primary store, read-write; long work (imports) goes on the rebuild thread, so that short
    /// admin reads and writes are not queued behind it.
    func withPrimary<T: Sendable>(long: Bool = false, _ body: @Sendable @escaping (any LocationStore) async throws -> T) async throws -> T {
        try await with(primary, readOnly: false, on: long ? .rebuilds : .storeAccess, body)
    }

    /// Runs `body` with the read replica (or the primary when there is none), read-only.
    func withReader<T: Sendable>(long: Bool = false, _ body: @Sendable @escaping (any LocationStore) async throws -> T) async throws -> T {
        try await with(reader, readOnly: true, on: long ? .rebuilds : .storeAccess, body)
    }

    private func with<T: Sendable>(
        _ address: StoreAddress, readOnly: Bool, on executor: BlockingWorkExecutor,
        _ body: @Sendable @escaping (any LocationStore) async throws -> T
    ) async throws -> T {
        let logger = logger
        let work: @Sendable () async throws -> T = {
            let store: any LocationStore
            do {
                store = try await address.open(readOnly: readOnly, logger: logger)
            } catch let error as StoreError {
                throw Self.unavailable(error)
            }
            do {
                return try await store.closing(body)
            } catch {
                throw Self.unavailable(error)
            }
        }
        // SQLite blocks its thread; PostgresNIO does not, but its work still keeps off the request handlers' pool.
        return try await executor.run(work)
    }

    /// A database that cannot be reached is a 503 the client can retry, not a 500.
    static func unavailable(_ error: any Error) -> any Error {
        guard let storeError = error as? StoreError else { return error }
        switch storeError {
        case .unreachable:
            return APIError(.serviceUnavailable, code: "store_unavailable", message: "the store cannot be reached; retry shortly", retryAfter: 5)
        default:
            return error
        }
    }
}
