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
        try await pool.with(.postgres(url), readOnly: false) { try await process($0) }
    }

    static func process(_ store: any LocationStore) async throws -> Int32 {
        let postgis = try #require(store as? PostGISLocationStore)
        return try await postgis.backendProcess()
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
            let (second, waited) = try await Self.whileStopped([first]) { try await Self.backend(pool, url) }
            #expect(second != first && opened.value == 2)
            #expect(waited >= .seconds(2) && waited < .seconds(8), "gave up after \(waited)")
            await pool.close()
        }
    }

    /// Connections kept beside one that stopped answering are closed with it, not each tried in turn: a use after
    /// a host vanished waits for one `connect_timeout` (5 s here), not one per kept connection.
    @Test(.enabled(if: PostgresPoolTests.canStopBackends, "needs PostgreSQL on this machine and the right to signal it"))
    func connectionsKeptBesideAStoppedOneAreClosedWithIt() async throws {
        try await Self.withStore { store in
            var url = store
            url.connectTimeout = .seconds(5)
            let opened = Opened()
            let pool = Self.pool(counting: opened)
            // Three uses at once leave three connections kept.
            let stopped = try await pool.with(.postgres(url), readOnly: false) { first in
                try await pool.with(.postgres(url), readOnly: false) { second in
                    [
                        try await Self.process(first), try await Self.process(second), try await Self.backend(pool, url),
                    ]
                }
            }
            #expect(Set(stopped).count == 3 && pool.idleCount == 3 && opened.value == 3)
            let (fresh, waited) = try await Self.whileStopped(stopped) { try await Self.backend(pool, url) }
            #expect(!stopped.contains(fresh) && opened.value == 4)
            #expect(waited >= .seconds(5) && waited < .seconds(9), "gave up after \(waited)")
            await pool.close()
        }
    }

    /// Runs `body` while the backend processes are stopped (SIGSTOP: they answer nothing, as a host that vanished),
    /// and says how long it took; then lets them go and ends them.
    static func whileStopped<T>(_ processes: [Int32], _ body: () async throws -> T) async throws -> (T, Duration) {
        for process in processes { #expect(kill(process, SIGSTOP) == 0) }
        defer {
            for process in processes {
                kill(process, SIGCONT)
                kill(process, SIGTERM)
            }
        }
        let started = ContinuousClock.now
        let value = try await body()
        return (value, ContinuousClock.now - started)
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
