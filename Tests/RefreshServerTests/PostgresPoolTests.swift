import Foundation
import LocationStore
import StoreOpening
import Testing

@testable import PostGISStore
@testable import RefreshServer

/// The server keeps its PostgreSQL connections between uses, and gives one up, for a new one, when the server ended
/// it, when it stops answering, or when another build upgraded the schema meanwhile.
@Suite(.serialized, .enabled(if: PostgresServers.primary != nil || PostgresServers.required))
struct PostgresPoolTests {
    typealias Opened = StorePoolTests.Opened

    /// The backend process serving the use: which connection it was, as PostgreSQL sees it.
    static func backend(_ pool: StorePool, _ url: PostgresURL) async throws -> Int32 {
        try await pool.with(.postgres(url), readOnly: false) { store in
            let postgis = try #require(store as? PostGISLocationStore)
            return try await postgis.backendProcess()
        }
    }

    /// Runs `body` with a store database of its own, dropped afterwards whatever happened.
    static func withStore(_ body: (PostgresURL) async throws -> Void) async throws {
        let url = try await PostgresServers.createStore()
        do { try await body(url) } catch {
            await PostgresServers.drop(url)
            throw error
        }
        await PostgresServers.drop(url)
    }

    static func pool(counting opened: Opened) -> StorePool {
        StorePool { address, readOnly in
            opened.note()
            return try await address.open(readOnly: readOnly)
        }
    }

    @Test func oneConnectionServesUseAfterUse() async throws {
        try await Self.withStore { url in
            let opened = Opened()
            let pool = Self.pool(counting: opened)
            let first = try await Self.backend(pool, url)
            for _ in 0..<4 { #expect(try await Self.backend(pool, url) == first) }
            #expect(opened.value == 1 && pool.idleCount == 1)
            await pool.close()
            #expect(pool.idleCount == 0)
        }
    }

    @Test func aConnectionTheServerEndedIsReplaced() async throws {
        try await Self.withStore { url in
            let opened = Opened()
            let pool = Self.pool(counting: opened)
            let first = try await Self.backend(pool, url)
            try await PostGISLocationStore.execute(on: url.with(database: "postgres"), "SELECT pg_terminate_backend(\(first))")
            try await Self.waitUntilGone(first)
            let second = try await Self.backend(pool, url)
            #expect(second != first && opened.value == 2)
            await pool.close()
        }
    }

    @Test func aSchemaAnotherBuildUpgradedMeanwhileIsRefused() async throws {
        try await Self.withStore { url in
            let pool = Self.pool(counting: Opened())
            _ = try await Self.backend(pool, url)
            let newer = PostGISSchema.currentVersion + 1
            try await PostGISLocationStore.execute(
                on: url, "UPDATE oncue_meta SET value = '\(newer)' WHERE key = 'schema_version'")
            await #expect {
                _ = try await Self.backend(pool, url)
            } throws: { error in
                guard case StoreError.newerSchema(_, let found, _)? = error as? StoreError else { return false }
                return found == newer
            }
            await pool.close()
        }
    }

    /// A stopped backend process answers nothing, as a host that vanished: the kept connection is given up after
    /// `connect_timeout` (2 s here), and the use goes on on a new connection instead of waiting for TCP to give up.
    @Test(.enabled(if: PostgresPoolTests.canStopBackends, "needs PostgreSQL on this machine and the right to signal it"))
    func aConnectionThatStopsAnsweringIsGivenUpWithinItsTimeout() async throws {
        try await Self.withStore { store in
            var url = store
            url.connectTimeout = .seconds(2)
            let opened = Opened()
            let pool = Self.pool(counting: opened)
            let first = try await Self.backend(pool, url)
            #expect(kill(first, SIGSTOP) == 0)
            defer {
                kill(first, SIGCONT)
                kill(first, SIGTERM)
            }
            let started = ContinuousClock.now
            let second = try await Self.backend(pool, url)
            let waited = ContinuousClock.now - started
            #expect(second != first && opened.value == 2)
            #expect(waited >= .seconds(2) && waited < .seconds(8), "gave up after \(waited)")
            await pool.close()
        }
    }

    /// The primary runs on this machine and this process may stop its backends (CI runs tests as root).
    static var canStopBackends: Bool {
        guard let primary = PostgresServers.primary, ["127.0.0.1", "localhost", "::1"].contains(primary.host) else { return false }
        return getuid() == 0
    }

    /// pg_terminate_backend only signals; the backend exits a moment later (EPERM: it exists, run by another user).
    static func waitUntilGone(_ pid: Int32) async throws {
        for _ in 0..<500 where kill(pid, 0) == 0 || errno == EPERM { try await Task.sleep(for: .milliseconds(10)) }
    }
}
