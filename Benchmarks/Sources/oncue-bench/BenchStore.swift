import ArgumentParser
import CommandLineOutput
import Foundation
import Geo
import LocationStore
import SQLiteStore
import SyntheticData

struct BenchStore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "nearby() (20 nearest within 50 km) on the SQLite store, beside SpatiaLite SQL baselines on the same file.",
        discussion: """
            Creates FILE with --locations seeded synthetic locations if it does not exist yet.
            Baselines, in the same run on the same file: the anchor kit's R*Tree + haversine expanding
            search (`sqlite-hav-expand`) and the idiomatic SpatiaLite SpatialIndex + ST_Distance query.

            Example:
              swift build -c release --package-path Benchmarks
              Benchmarks/.build/release/oncue-bench store --db /tmp/bench-1m.sqlite --locations 1000000 --seconds 10
            """
    )
    @Option(help: "Store file (created and filled if missing).") var db: String
    @Option(help: "Synthetic locations to create when the store is new.") var locations: Int = 1_000_000
    @Option(help: "Distinct query points.") var queries: Int = 10_000
    @Option(help: "Seconds per method.") var seconds: Double = 10
    @Option(help: "Search radius in km.") var radiusKm: Double = 50
    @Option(help: "Results per query.") var limit: Int = 20
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        if !FileManager.default.fileExists(atPath: db) {
            let store = try SQLiteLocationStore.create(path: db)
            let started = Date()
            try await fill(store)
            FileHandleOutput.standardError.write(
                String(format: "created %@ with %d locations in %.1f s\n", db, locations, Date().timeIntervalSince(started)))
        }
        let store = try SQLiteLocationStore(path: db, readOnly: true)
        let points = queryPoints()
        let center = points.map { NearbyQuery(center: $0, radiusMeters: radiusKm * 1000, limit: limit) }
        // Warm the page cache so every method reads from memory.
        _ = try store.stats()
        _ = try center.prefix(200).map { try store.nearby($0) }
        var samples: [LatencySample] = []
        samples.append(try measure("rtree-haversine-expand (anchor form)", inputs: center, seconds: seconds) { _ = try store.nearbyViaRTree($0) })
        samples.append(try measure("oncue nearby (geohash B-tree)", inputs: center, seconds: seconds) { _ = try store.nearby($0) })
        samples.append(
            try measure("spatialite SpatialIndex + ST_Distance", inputs: center, seconds: min(seconds, 10)) {
                _ = try store.nearbyViaSpatiaLiteSQL($0).prefix(limit)
            })
        if json {
            print(try jsonString(samples))
            return
        }
        print("store: \(db), \(try store.stats().locationCount) locations; \(points.count) query points, \(limit) nearest within \(radiusKm) km")
        printSamples(samples, baseline: "rtree-haversine-expand (anchor form)")
    }

    func fill(_ store: SQLiteLocationStore) async throws {
        let synthetic = SyntheticLocations(count: locations)
        try await store.transaction {
            for network in synthetic.networks { try store.upsertNetwork(network) }
            var batch: [Location] = []
            for location in synthetic {
                batch.append(location)
                if batch.count == 10_000 {
                    _ = try store.upsert(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            _ = try store.upsert(batch)
        }
    }

    /// 90 % near the synthetic clusters (a second synthetic draw), 10 % anywhere with |lat| < 75.
    func queryPoints() -> [Coordinate] {
        var rng = SeededRandom(seed: 99)
        var result: [Coordinate] = []
        var nearCities = SyntheticLocations(count: queries, seed: 20_251_122).makeIterator()
        for _ in 0..<queries {
            if Double.random(in: 0..<1, using: &rng) < 0.9, let l = nearCities.next() {
                // Not on a store: up to 3 km away from one.
                result.append(
                    Sphere.destination(
                        from: l.coordinate, meters: .random(in: 0...3_000, using: &rng),
                        bearing: .random(in: 0..<360, using: &rng)))
            } else {
                result.append(Coordinate(uncheckedLatitude: .random(in: -75...75, using: &rng), longitude: .random(in: -180...180, using: &rng)))
            }
        }
        return result
    }
}
