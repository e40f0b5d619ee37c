import ChainImport
import Foundation
import Geo
import Testing

@testable import LocationStore

/// What `changes(since:limit:)` reports after each write path: the rows written and only those, deletions as ids,
/// network setting changes as every location of the network, and nothing from a transaction rolled back.
@Suite("Change tracking (SQLite and PostGIS)")
struct ChangeTrackingConformanceTests {
    /// A location by its external id (its id is derived from it, as every store holds it to be).
    static func location(_ external: String, network: String = "acme", lat: Double = 40, lon: Double = -73) -> Location {
        Location(networkId: network, externalId: external, name: "Store \(external)", coordinate: Coordinate(uncheckedLatitude: lat, longitude: lon))
    }

    /// `loc_<network>_<external>` back to the external id, for short expectations.
    static func external(_ id: String) -> String { String(id.split(separator: "_", maxSplits: 2)[2]) }

    static func changed(_ store: any LocationStore, since v: Int64) async throws -> (ids: [String], deleted: [String], version: Int64) {
        let changes = try #require(try await store.changes(since: v, limit: 1_000_000))
        return (changes.upserted.map { external($0.id) }, changes.deletedIds.map(external), changes.version)
    }

    @Test("upsert, update, unchanged, delete, network settings and deletion each report what they changed", arguments: TestStore.kinds)
    func writePaths(kind: StoreKind) async throws {
        try await TestStore.with(kind) { store, _ in
            try await store.upsertNetwork(Network(id: "acme", name: "Acme"))
            try await store.upsertNetwork(Network(id: "beta", name: "Beta"))
            _ = try await store.upsert([Self.location("a1"), Self.location("a2"), Self.location("b1", network: "beta")])
            let v0 = try await store.trackedVersion()

            _ = try await store.upsert([Self.location("a1", lat: 41), Self.location("a2")])  // a2 unchanged
            var c = try await Self.changed(store, since: v0)
            #expect(c.ids == ["a1"] && c.deleted.isEmpty && c.version > v0)
            let v1 = c.version
            #expect(try await Self.changed(store, since: v1).ids.isEmpty, "nothing changed after the version read")

            #expect(try await store.deleteLocations(ids: [Self.location("a2").id, "missing"]) == 1)
            c = try await Self.changed(store, since: v1)
            #expect(c.ids.isEmpty && c.deleted == ["a2"])
            let v2 = c.version

            // Deleted, then written again: it exists, so it is an upsert.
            _ = try await store.upsert([Self.location("a2", lat: 42)])
            c = try await Self.changed(store, since: v1)
            #expect(c.ids == ["a2"] && c.deleted.isEmpty)

            // A category is read per network; a new name changes how every location of the network is served.
            try await store.upsertNetwork(Network(id: "beta", name: "Beta", category: "coffee"))
            c = try await Self.changed(store, since: v2)
            #expect(c.ids == ["a2"], "a category change marks no location")
            #expect(try await store.changes(since: v2, limit: 10)?.networks.first { $0.network.id == "beta" }?.network.category == "coffee")
            let v3 = c.version
            try await store.upsertNetwork(Network(id: "beta", name: "Beta Coffee", category: "coffee"))
            c = try await Self.changed(store, since: v3)
            #expect(c.ids == ["b1"])
            let v4 = c.version

            _ = try await store.deleteNetwork(id: "beta")
            c = try await Self.changed(store, since: v4)
            #expect(c.ids.isEmpty && c.deleted == ["b1"])
            #expect(try await store.changes(since: v4, limit: 10)?.networks.contains { $0.network.id == "beta" } == false)

            // Too many changes for the reader's limit, or a version older than tracking: read everything.
            #expect(try await store.changes(since: v0, limit: 1) == nil)
            #expect(try await store.changes(since: 0, limit: 1_000) == nil)
        }
    }

    @Test("a rolled-back transaction reports nothing; an import reports its inserts, updates and removals", arguments: TestStore.kinds)
    func transactionsAndImports(kind: StoreKind) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-changes-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await TestStore.with(kind) { store, _ in
            try await store.upsertNetwork(Network(id: "acme", name: "Acme"))
            _ = try await store.upsert([Self.location("old-1"), Self.location("old-2")])
            let v0 = try await store.trackedVersion()
            struct Abandon: Error {}
            await #expect(throws: Abandon.self) {
                try await store.transaction {
                    _ = try await store.upsert([Self.location("old-1", lat: 50)])
                    throw Abandon()
                }
            }
            #expect(try await Self.changed(store, since: v0).ids.isEmpty)

            try Data("id,name,lat,lon\nx1,Store x1,40,-73\nx3,Store x3,40.5,-73.5\n".utf8).write(to: URL(fileURLWithPath: path))
            var options = ImportOptions(network: "acme")
            options.replaceNetwork = true
            _ = try await ImportConformanceTests.importing(store, [path], options)
            let c = try await Self.changed(store, since: v0)
            let stored = Set(try await store.locationIds(networkId: "acme").map(Self.external))
            let before: Set<String> = ["old-1", "old-2"]
            #expect(Set(c.ids) == stored.subtracting(before), "every row the import wrote, no other")
            #expect(Set(c.deleted) == before.subtracting(stored), "every row it removed")
            #expect(stored.count == 2)
        }
    }
}

extension ChangeTrackingConformanceTests {
    @Test("pruned history: tombstones older than the kept versions go, and a reader that old is told to read everything", arguments: TestStore.kinds)
    func pruning(kind: StoreKind) async throws {
        try await TestStore.with(kind) { store, _ in
            try await store.upsertNetwork(Network(id: "acme", name: "Acme"))
            _ = try await store.upsert([Self.location("p1"), Self.location("p2")])
            let v0 = try await store.trackedVersion()
            _ = try await store.deleteLocations(ids: [Self.location("p1").id])
            let v1 = try await store.trackedVersion()
            _ = try await store.deleteLocations(ids: [Self.location("p2").id])
            let v2 = try await store.trackedVersion()
            #expect(try await Self.changed(store, since: v0).deleted == ["p1", "p2"])
            // Keep one version: p1's tombstone (v1) goes, p2's (v2) stays.
            try await store.pruneChangeHistory(keeping: 1, at: v2)
            #expect(try await store.changes(since: v0, limit: 100) == nil, "a reader from before the horizon reads everything")
            #expect(try await Self.changed(store, since: v1).deleted == ["p2"])
        }
    }
}
