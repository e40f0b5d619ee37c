import Foundation
import Geo
import LocationStore
import OnCueContract
import SQLiteStore
import SyntheticData
import Testing

@testable import RegionRefresh

/// Readers never see a half-built index: while snapshots are swapped, every answer comes wholly from one of them.
@Suite struct SnapshotSwapTests {
    @Test func answersComeFromOneWholeSnapshot() async throws {
        func snapshot(_ tag: String, _ count: Int) -> LocationIndex {
            let spec = SyntheticLocations(count: count, seed: 11, networkCount: 3, clusterCount: 5)
            let locations = spec.map { l -> Location in
                var l = l
                l.id = "\(tag)-\(l.externalId)"
                return l
            }
            return LocationIndex.build(locations: locations, networks: spec.networks)
        }
        let a = snapshot("A", 20_000)
        let b = snapshot("B", 25_000)
        let engine = RegionRefreshEngine(index: a)
        let centers = Array(SyntheticLocations(count: 200, seed: 11, networkCount: 3, clusterCount: 5)).map(\.coordinate)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<3 {
                group.addTask {
                    var mixed = 0
                    for i in 0..<400 {
                        let r = try engine.refresh(RefreshParameters(center: centers[(i + worker) % centers.count]), now: Date())
                        let tags = Set(r.regions.map { $0.id.prefix(1) })
                        if tags.count > 1 { mixed += 1 }
                    }
                    return mixed
                }
            }
            group.addTask {
                for k in 0..<40 {
                    engine.install(k % 2 == 0 ? b : a)
                    await Task.yield()
                }
                return 0
            }
            var mixed = 0
            for try await m in group { mixed += m }
            #expect(mixed == 0)
        }
        #expect(engine.isReady)
        #expect(RegionRefreshEngine().isReady == false)
        #expect(throws: RegionRefreshError.notReady) { try RegionRefreshEngine().refresh(RefreshParameters(center: centers[0]), now: Date()) }
    }

    @Test func reloadFromAStoreSwapsIn() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-swap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteLocationStore.create(path: dir.appendingPathComponent("s.sqlite").path)
        try store.upsertNetwork(Network(id: "n", name: "N"))
        _ = try store.upsert([Location(networkId: "n", externalId: "1", name: "One", coordinate: Coordinate(uncheckedLatitude: 10, longitude: 10))])
        let engine = RegionRefreshEngine()
        let info = try await engine.reload(from: store)
        #expect(info.locationCount == 1)
        _ = try store.upsert([
            Location(networkId: "n", externalId: "2", name: "Two", coordinate: Coordinate(uncheckedLatitude: 10.001, longitude: 10))
        ])
        let before = try engine.refresh(RefreshParameters(center: Coordinate(uncheckedLatitude: 10, longitude: 10)), now: Date())
        #expect(before.regions.count == 1)
        try await engine.reload(from: store)
        let after = try engine.refresh(RefreshParameters(center: Coordinate(uncheckedLatitude: 10, longitude: 10)), now: Date())
        #expect(after.regions.count >= 1 && engine.index?.count == 2)
    }
}
