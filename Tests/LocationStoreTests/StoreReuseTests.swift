import Foundation
import Geo
import LocationStore
import SQLiteStore
import Testing

/// A connection kept open between uses (the server's `StorePool`) must not read an old snapshot: a read stepped to
/// its first row and left there keeps SQLite's read transaction open, and every later read on the connection sees
/// the store as it was then. `suspend` ends it.
@Suite struct StoreReuseTests {
    func location(_ ext: String) -> Location {
        Location(networkId: "n", externalId: ext, name: "Store \(ext)", coordinate: Coordinate(uncheckedLatitude: 10, longitude: 20))
    }

    @Test func aReusedReaderSeesWritesCommittedSinceItsLastUse() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let writer = try SQLiteLocationStore.create(path: dir.path("s.sqlite"))
        try writer.upsertNetwork(Network(id: "n", name: "N"))
        _ = try writer.upsert([location("1"), location("2")])
        let reader = try SQLiteLocationStore(path: dir.path("s.sqlite"), readOnly: true)

        // One use: a single-row read, whose statement stays on its row.
        #expect(try reader.location(id: "loc_n_1") != nil)
        _ = try writer.upsert([location("3")])
        // Without a reset the next read would still see two locations (the first read's snapshot).
        #expect(try reader.locationIds(networkId: "n").count == 2, "the precondition: a read left on its row pins the snapshot")

        #expect(reader.suspend() && reader.resume())
        #expect(try reader.locationIds(networkId: "n") == ["loc_n_1", "loc_n_2", "loc_n_3"])
    }

    @Test func aStoreInsideATransactionIsNotReused() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let store = try SQLiteLocationStore.create(path: dir.path("s.sqlite"))
        try store.upsertNetwork(Network(id: "n", name: "N"))
        #expect(store.suspend())
        try await store.transaction {
            _ = try store.upsert([location("1")])
            #expect(!store.suspend())
        }
        #expect(store.suspend())
        #expect(try store.locationIds(networkId: "n") == ["loc_n_1"])
    }
}
