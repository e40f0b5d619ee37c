import Foundation
import LocationStore
import PostGISStore
import StoreOpening
import TestSupport
import Testing

@testable import RefreshServer

/// The server keeps its SQLite connections open between uses: the next use takes the same one, uses that overlap
/// take one each, a use that fails does not give its store back, and a closed pool keeps nothing.
@Suite struct StorePoolTests {
    final class Opened: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func note() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    func makePool(capacity: Int = 4, counting opened: Opened) -> StorePool {
        StorePool(capacity: capacity) { address, readOnly in
            opened.note()
            return try await address.open(readOnly: readOnly)
        }
    }

    func use(_ pool: StorePool, _ address: StoreAddress, readOnly: Bool = false) async throws -> ObjectIdentifier {
        try await pool.with(address, readOnly: readOnly) { ObjectIdentifier($0 as AnyObject) }
    }

    @Test func oneConnectionServesUseAfterUse() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let address = StoreAddress.file(store.path)
        let opened = Opened()
        let pool = makePool(counting: opened)
        let first = try await use(pool, address)
        for _ in 0..<5 { #expect(try await use(pool, address) == first) }
        _ = try await use(pool, address, readOnly: true)
        #expect(opened.value == 2, "one read-write and one read-only connection")
        #expect(pool.idleCount == 2)
        await pool.close()
        #expect(pool.idleCount == 0)
        _ = try await use(pool, address)
        #expect(pool.idleCount == 0, "after close, each store is closed after its use")
    }

    @Test func overlappingUsesTakeOneEachAndAFailedUseGivesNothingBack() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let address = StoreAddress.file(store.path)
        let opened = Opened()
        let pool = makePool(capacity: 2, counting: opened)
        let ids = try await pool.with(address, readOnly: true) { outer in
            [ObjectIdentifier(outer as AnyObject), try await use(pool, address, readOnly: true)]
        }
        #expect(Set(ids).count == 2 && opened.value == 2)
        #expect(pool.idleCount == 2)
        struct Failure: Error {}
        await #expect(throws: Failure.self) {
            try await pool.with(address, readOnly: true) { _ in throw Failure() }
        }
        #expect(pool.idleCount == 1, "the store whose use failed is closed, not kept")
    }

    /// A PostgreSQL connection kept between uses is reused; one the server ends while it waits (a restart, an
    /// administrator's pg_terminate_backend) is replaced at the next use, which succeeds at its first try. (A query
    /// started on a connection already closed never returns: without the check at `take`, this test hangs. No time
    /// limit here: creating the database and PostGIS in it alone takes over a minute on a loaded machine.)
    @Test(.enabled(if: PostgresServers.primary != nil || PostgresServers.required))
    func aPostgreSQLConnectionTheServerEndedIsReplaced() async throws {
        let url = try await PostgresServers.createStore()
        let address = StoreAddress.postgres(url)
        let opened = Opened()
        let pool = makePool(counting: opened)
        do {
            let first = try await use(pool, address)
            #expect(try await use(pool, address) == first && opened.value == 1)
            try await PostGISLocationStore.execute(
                on: url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
            #expect(try await eventually(within: .seconds(10)) { pool.idleFitCount == 0 }, "the client saw its session end")
            let networks = try await pool.with(address, readOnly: false) { try await $0.networks().map(\.network.id) }
            #expect(networks == ["costco"] && opened.value == 2)
        } catch {
            await pool.close()
            await PostgresServers.drop(url)
            throw error
        }
        await pool.close()
        await PostgresServers.drop(url)
    }
}
