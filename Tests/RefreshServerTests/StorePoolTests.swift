import Foundation
import LocationStore
import StoreOpening
import TestSupport
import Testing

@testable import RefreshServer

/// The server keeps its SQLite connections open between uses: the next use takes the same one, uses that overlap
/// take one each, a use that fails gives back a sound store, and a closed pool keeps nothing.
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

    @Test func overlappingUsesTakeOneEachAndAFailedUseGivesItsSoundStoreBack() async throws {
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
        #expect(pool.idleCount == 2, "a refused request leaves its connection as good as it found it")
    }
}
