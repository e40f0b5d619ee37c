import Foundation
import Geo
import LocationStore
import TestSupport
import Testing

/// A merge of random networks against a brute-force oracle, on both stores: which locations go (within 10 m of one
/// the target had, by great-circle distance), which are renamed (their id taken), that every other field moves
/// unchanged, and that a server following the store's changes sees every old id deleted and every new one written.
@Suite("Network merge against a brute-force oracle (SQLite and PostGIS)", .cpuHeavy)
struct MergeOracleConformanceTests {
    static let centre = Coordinate(uncheckedLatitude: 48.85, longitude: 2.35)

    /// `into` and `from` around one centre; a share of `from` 1–6 m from an `into` location, a share with an `into`
    /// location's external id. Other distances stay over 30 m, far from the 10 m line, so rounding cannot decide.
    static func networks(seed: UInt64) -> (into: [Location], from: [Location]) {
        var random = SeededRandom(seed: seed)
        var into: [Location] = []
        var placed: [Coordinate] = []
        func free(_ c: Coordinate) -> Bool { !placed.contains { Sphere.distance($0, c) < 30 } }
        while into.count < 200 {
            let c = Sphere.destination(
                from: centre, meters: Double.random(in: 0...5_000, using: &random), bearing: Double.random(in: 0..<360, using: &random))
            guard free(c) else { continue }
            placed.append(c)
            into.append(Location(networkId: "into", externalId: "i\(into.count)", name: "Into \(into.count)", coordinate: c))
        }
        var from: [Location] = []
        while from.count < 150 {
            let n = from.count
            var c: Coordinate
            if n % 5 == 0 {
                c = Sphere.destination(
                    from: into[n].coordinate, meters: Double.random(in: 1...6, using: &random), bearing: Double.random(in: 0..<360, using: &random))
            } else {
                c = Sphere.destination(
                    from: centre, meters: Double.random(in: 0...5_000, using: &random), bearing: Double.random(in: 0..<360, using: &random))
                guard free(c) else { continue }
                placed.append(c)
            }
            let external = n % 7 == 1 ? "i\(n)" : "f\(n)"
            var l = Location(networkId: "from", externalId: external, name: "From \(n)", coordinate: c)
            l.address = "\(n) Rue"
            l.radiusMeters = n % 3 == 0 ? 120 : nil
            l.openingHours = n % 4 == 0 ? "Mo-Fr 09:00-18:00" : nil
            from.append(l)
        }
        return (into, from)
    }

    @Test("merged as the oracle says; a change follower sees old ids deleted and new ones written", arguments: TestStore.kinds)
    func mergeMatchesOracle(kind: StoreKind) async throws {
        let (into, from) = Self.networks(seed: 7)
        // The oracle: brute force over every pair.
        let dropped = from.filter { f in into.contains { Sphere.distance($0.coordinate, f.coordinate) <= 10 } }
        let intoIds = Set(into.map(\.externalId))
        var expected = into
        for f in from where !dropped.contains(where: { $0.id == f.id }) {
            var m = f
            m.networkId = "into"
            if intoIds.contains(f.externalId) { m.externalId = "from:\(f.externalId)" }
            m.id = Location.makeId(networkId: "into", externalId: m.externalId)
            expected.append(m)
        }
        try await TestStore.with(kind) { store, _ in
            try await store.upsertNetwork(Network(id: "into", name: "Into"))
            try await store.upsertNetwork(Network(id: "from", name: "From"))
            _ = try await store.upsert(into + from)
            let before = try await store.trackedVersion()
            let merge = try await store.mergeNetwork("from", into: "into")
            #expect(merge.deduplicated == dropped.count && dropped.count == 30)
            #expect(merge.renamed == from.filter { intoIds.contains($0.externalId) }.count - dropped.filter { intoIds.contains($0.externalId) }.count)
            #expect(merge.moved == from.count - dropped.count)
            let stored = try await store.locations(networkId: "into")
            #expect(stored.count == expected.count)
            let byId = Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0) })
            for e in expected {
                guard let s = byId[e.id] else {
                    Issue.record("\(e.id) missing")
                    continue
                }
                #expect(s.sameContent(as: e), "\(e.id)")
            }
            let changes = try #require(try await store.changes(since: before, limit: 10_000))
            #expect(Set(changes.deletedIds) == Set(from.map(\.id)))
            let moved = Set(expected.map(\.id)).subtracting(into.map(\.id))
            #expect(Set(changes.upserted.map(\.id)) == moved)
            #expect(try await store.verify().isEmpty)
        }
    }
}
