import Foundation
import LocationStore
import PostGISStore
import StoreOpening
import Testing

/// The two stores every conformance test runs against.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgis
    var testDescription: String { rawValue }
}

/// A fresh, empty store of a kind, and how to remove it: a file in a temporary directory, or a database of its own
/// on the PostgreSQL server named by `ONCUE_POSTGRES_URL` (scripts/postgres.sh starts one; scripts/test.sh and CI
/// set it, with `ONCUE_SERVICES=required` so that a missing server fails the PostGIS half instead of skipping it).
struct TestStore: Sendable {
    let kind: StoreKind
    let address: StoreAddress
    private let cleanup: @Sendable () async -> Void

    static var serverURL: PostgresURL? {
        ProcessInfo.processInfo.environment["ONCUE_POSTGRES_URL"].flatMap { try? PostgresURL($0) }
    }

    /// Whether the PostGIS half can run; with `ONCUE_SERVICES=required` it must.
    static var postgisAvailable: Bool { serverURL != nil }

    static var kinds: [StoreKind] {
        postgisAvailable || ProcessInfo.processInfo.environment["ONCUE_SERVICES"] == "required" ? StoreKind.allCases : [.sqlite]
    }

    static func make(_ kind: StoreKind) async throws -> TestStore {
        switch kind {
        case .sqlite:
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-conformance-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            return TestStore(kind: kind, address: .file(dir.appendingPathComponent("store.sqlite").path)) {
                try? FileManager.default.removeItem(at: dir)
            }
        case .postgis:
            guard let server = serverURL else {
                Issue.record("ONCUE_POSTGRES_URL is not set: start PostgreSQL with `scripts/postgres.sh start` and export its URL")
                throw CocoaError(.fileNoSuchFile)
            }
            let name = "oncue_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
            try await Admin.run(server, "CREATE DATABASE \(name)")
            return TestStore(kind: kind, address: .postgres(server.with(database: String(name)))) {
                try? await Admin.run(server, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            }
        }
    }

    private init(kind: StoreKind, address: StoreAddress, cleanup: @escaping @Sendable () async -> Void) {
        self.kind = kind
        self.address = address
        self.cleanup = cleanup
    }

    func remove() async { await cleanup() }

    /// Creates the store, runs `body` with it, closes it and removes it whatever happens.
    static func with<T>(_ kind: StoreKind, _ body: (any LocationStore, TestStore) async throws -> T) async throws -> T {
        let test = try await make(kind)
        do {
            let store = try await test.address.create()
            do {
                let value = try await body(store, test)
                await store.close()
                await test.remove()
                return value
            } catch {
                await store.close()
                throw error
            }
        } catch {
            await test.remove()
            throw error
        }
    }
}

/// Statements on the server's own database (creating and dropping test databases), through psql-free PostgresNIO.
enum Admin {
    static func run(_ server: PostgresURL, _ sql: String) async throws {
        try await PostGISLocationStore.execute(on: server, sql)
    }
}
