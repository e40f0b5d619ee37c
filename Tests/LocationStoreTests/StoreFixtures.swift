import Foundation
import Geo
import LocationStore
import SQLiteStore
import SyntheticData

/// A fresh directory for one test's store files, removed by `cleanup()`.
struct TemporaryDirectory {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    func cleanup() { try? FileManager.default.removeItem(at: url) }
}

/// 100,000 seeded locations with deliberate ties: every 50th location duplicates the coordinates of the one before.
let bulkLocations: [Location] = {
    var result: [Location] = []
    var previous: Coordinate?
    for (i, l) in SyntheticLocations(count: 100_000, seed: 4242, networkCount: 30, clusterCount: 300).enumerated() {
        var l = l
        if i % 50 == 0, let p = previous { l.coordinate = p }
        previous = l.coordinate
        result.append(l)
    }
    return result
}()

/// One store file holding `bulkLocations`, created once per test process and shared read-only.
let bulkStorePath: String = {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-bulk-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent("bulk.sqlite").path
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    let store = try! SQLiteLocationStore.create(path: path)
    for n in SyntheticLocations(count: 0, networkCount: 30).networks { try! store.upsertNetwork(n) }
    var batch: [Location] = []
    for l in bulkLocations {
        batch.append(l)
        if batch.count == 20_000 {
            _ = try! store.upsert(batch)
            batch.removeAll()
        }
    }
    _ = try! store.upsert(batch)
    return path
}()

/// The oracle: every location, exact haversine, sorted by (distance, id).
func bruteForceNearby(_ query: NearbyQuery, in locations: [Location]) -> [(id: String, meters: Double)] {
    var hits: [(id: String, meters: Double)] = []
    for l in locations {
        if let networks = query.networks, !networks.contains(l.networkId) { continue }
        let d = Sphere.distance(query.center, l.coordinate)
        if d <= query.radiusMeters { hits.append((l.id, d)) }
    }
    hits.sort { $0.meters != $1.meters ? $0.meters < $1.meters : $0.id < $1.id }
    return Array(hits.prefix(query.limit))
}

func randomQuery(_ rng: inout SeededRandom) -> NearbyQuery {
    let base = bulkLocations[Int.random(in: 0..<bulkLocations.count, using: &rng)].coordinate
    let center =
        Double.random(in: 0..<1, using: &rng) < 0.9
        ? Sphere.destination(from: base, meters: .random(in: 0...5_000, using: &rng), bearing: .random(in: 0..<360, using: &rng))
        : Coordinate(uncheckedLatitude: .random(in: -80...80, using: &rng), longitude: .random(in: -180...180, using: &rng))
    let radius = [500.0, 5_000, 50_000, 50_000, 150_000][Int.random(in: 0..<5, using: &rng)]
    let limit = [1, 5, 20, 20, 100][Int.random(in: 0..<5, using: &rng)]
    let networks: Set<String>? =
        Double.random(in: 0..<1, using: &rng) < 0.25
        ? Set((0..<Int.random(in: 1...3, using: &rng)).map { _ in SyntheticLocations.networkId(rank: Int.random(in: 1...30, using: &rng)) })
        : nil
    return NearbyQuery(center: center, radiusMeters: radius, limit: limit, networks: networks)
}
