import Foundation
import Geo
import LocationStore
import Testing

/// Deleting and merging networks keep the same promises on both stores: one transaction, nothing of the network left
/// behind, the import log kept, and the merged network reachable by every spelling it had.
@Suite("Network delete and merge (SQLite and PostGIS)")
struct NetworkLifecycleConformanceTests {
    static let base = Coordinate(uncheckedLatitude: 40.75, longitude: -73.99)

    static func at(_ metersNorth: Double) -> Coordinate { Sphere.destination(from: base, meters: metersNorth, bearing: 0) }

    /// chipotle: three stores; chipotle-mexican-grill: one 4 m from a chipotle store (a near-duplicate), one whose id
    /// chipotle uses elsewhere, one new; an unrelated network.
    static func seed(_ store: any LocationStore) async throws {
        try await store.upsertNetwork(Network(id: "chipotle", name: "Chipotle", category: "fast-food"))
        try await store.upsertNetwork(Network(id: "chipotle-mexican-grill", name: "Chipotle Mexican Grill"))
        try await store.upsertNetwork(Network(id: "sonic", name: "Sonic"))
        try await store.addAlias("CMG", networkId: "chipotle-mexican-grill")
        _ = try await store.upsert([
            Location(networkId: "chipotle", externalId: "1", name: "Chipotle 1", coordinate: at(0)),
            Location(networkId: "chipotle", externalId: "2", name: "Chipotle 2", coordinate: at(2_000)),
            Location(networkId: "chipotle", externalId: "3", name: "Chipotle 3", coordinate: at(4_000)),
            Location(networkId: "chipotle-mexican-grill", externalId: "a", name: "CMG a", coordinate: at(4)),
            Location(networkId: "chipotle-mexican-grill", externalId: "2", name: "CMG 2", coordinate: at(6_000)),
            Location(networkId: "chipotle-mexican-grill", externalId: "c", name: "", coordinate: at(8_000)),
            Location(networkId: "sonic", externalId: "1", name: "Sonic 1", coordinate: at(100)),
        ])
        _ = try await store.insertImport(ImportRecord(fileName: "cmg.csv", fileSize: 1, sha256: "x", startedAt: Date(), status: "committed"))
    }

    @Test("delete: the network, its locations and aliases go in one transaction; others and the log stay", arguments: TestStore.kinds)
    func delete(kind: StoreKind) async throws {
        try await TestStore.with(kind) { store, _ in
            try await Self.seed(store)
            let deletion = try await store.deleteNetwork(id: "chipotle-mexican-grill")
            #expect(deletion == NetworkDeletion(networkId: "chipotle-mexican-grill", locationsRemoved: 3, aliasesRemoved: 1))
            #expect(try await store.network(id: "chipotle-mexican-grill") == nil)
            #expect(try await store.resolveNetwork("CMG") == nil)
            #expect(try await store.locations(networkId: "chipotle-mexican-grill").isEmpty)
            #expect(try await store.locations(networkId: "chipotle").count == 3)
            #expect(try await store.locations(networkId: "sonic").count == 1)
            #expect(try await store.imports(limit: 10, before: nil).count == 1)
            #expect(try await store.deleteNetwork(id: "chipotle-mexican-grill") == nil)
            #expect(try await store.verify().isEmpty)
        }
    }

    @Test("a failed transaction around a delete leaves the network as it was", arguments: TestStore.kinds)
    func deleteRollsBack(kind: StoreKind) async throws {
        struct Abort: Error {}
        try await TestStore.with(kind) { store, _ in
            try await Self.seed(store)
            await #expect(throws: Abort.self) {
                try await store.transaction {
                    _ = try await store.deleteNetwork(id: "chipotle")
                    throw Abort()
                }
            }
            #expect(try await store.locations(networkId: "chipotle").count == 3)
        }
    }

    @Test("merge: locations move (near-duplicates dropped, clashing ids prefixed), every spelling resolves to the target", arguments: TestStore.kinds)
    func merge(kind: StoreKind) async throws {
        try await TestStore.with(kind) { store, _ in
            try await Self.seed(store)
            let merge = try await store.mergeNetwork("chipotle-mexican-grill", into: "chipotle")
            #expect(merge.moved == 2 && merge.deduplicated == 1 && merge.renamed == 1)
            let ids = try await store.locations(networkId: "chipotle").map(\.id)
            #expect(ids == ["loc_chipotle_1", "loc_chipotle_2", "loc_chipotle_3", "loc_chipotle_c", "loc_chipotle_chipotle-mexican-grill:2"])
            #expect(try await store.network(id: "chipotle-mexican-grill") == nil)
            for spelling in ["chipotle-mexican-grill", "Chipotle Mexican Grill", "CMG"] {
                #expect(try await store.resolveNetwork(spelling) == "chipotle", "\(spelling)")
            }
            #expect(try await store.locations(networkId: "sonic").count == 1)
            #expect(try await store.verify().isEmpty)
            await #expect(throws: StoreError.unknownNetwork("nope")) { try await store.mergeNetwork("nope", into: "chipotle") }
            await #expect(throws: StoreError.self) { try await store.mergeNetwork("chipotle", into: "chipotle") }
        }
    }
}
