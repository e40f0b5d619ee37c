import Foundation
import LocationStore
import RegionRefresh
import SyntheticData
import Testing

/// The store half of bringing an index up to date: random changes written through the store's own write paths
/// (upserts, deletes, network settings, network deletion after a merge), read back with `changes(since:limit:)` and
/// applied; after every step the index answers exactly as one built from the store from scratch.
@Suite("An index brought up to date by a store's changes (SQLite and PostGIS)")
struct IncrementalIndexConformanceTests {
    /// Writes what changed from `before` to `script` into the store, as an admin or an import would.
    static func write(_ script: ChangeScript, over before: ChangeScript?, into store: any LocationStore) async throws {
        for summary in script.summaries {
            if before?.networks[summary.network.id] != summary.network { try await store.upsertNetwork(summary.network) }
            for alias in summary.aliases where before?.aliases[summary.network.id]?.contains(alias) != true {
                try await store.addAlias(alias, networkId: summary.network.id)
            }
        }
        let changed = script.records.keys.sorted().filter { before?.records[$0] != script.records[$0] }
        _ = try await store.upsert(changed.map { ChangeScript.location(script.records[$0]!) })
        let deleted = (before?.records.keys.sorted() ?? []).filter { script.records[$0] == nil }
        if !deleted.isEmpty { _ = try await store.deleteLocations(ids: deleted) }
        for id in (before?.networks.keys.sorted() ?? []) where script.networks[id] == nil { _ = try await store.deleteNetwork(id: id) }
    }

    @Test("random steps written to the store: the index updated by its changes answers as a build from the store", arguments: TestStore.kinds)
    func updatedEqualsBuilt(kind: StoreKind) async throws {
        try await TestStore.with(kind) { store, _ in
            var script = ChangeScript(seed: 7, count: 800)
            try await Self.write(script, over: nil, into: store)
            var version = try await store.trackedVersion()
            var index = try await LocationIndex.build(from: store)
            for round in 0..<8 {
                let before = script
                _ = script.step(operations: round % 4 == 3 ? 40 : 8)
                try await Self.write(script, over: before, into: store)
                let changes = try #require(try await store.changes(since: version, limit: 100_000))
                #expect(changes.version > version)
                version = changes.version
                index = try #require(index.applying(changes, limit: 100_000))
                let built = try await LocationIndex.build(from: store)
                let difference = script.firstDifference(index, built, queries: 25)
                #expect(difference == nil, "round \(round): \(difference ?? "")")
                if difference != nil { break }
            }
            #expect(index.changesApplied > 0)
        }
    }
}
