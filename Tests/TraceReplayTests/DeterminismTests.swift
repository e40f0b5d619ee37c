import Foundation
import Geo
import LocationStore
import OnCueClient
import TestSupport
import Testing

@testable import TraceReplay

/// Same seed → byte-identical outputs, whatever the parallelism; another seed → different noise.
@Suite(.needsSharedDatasets) struct DeterminismTests {
    func outputs(seed: UInt64, parallelism: Int) async throws -> [String: Data] {
        var sc = try Scenario.profile("ios")
        sc.seed = seed
        let paths = [
            try SharedDatasets.path("trace-geolife-beijing/geolife_long/001/Trajectory/20081023055305.plt"),
            try SharedDatasets.path("trace-gpx-slovenia-croatia-gpxpy/cerknicko-jezero.gpx"),
        ]
        // Stores on the first trace's path, so there is something to visit.
        let trace = try TraceLoader.load(path: paths[0])
        let fixes = trace.fixes
        let stores = stride(from: 0, to: fixes.count, by: 60).map {
            Location(
                networkId: "acme", externalId: "\($0)", name: "Acme \($0)",
                coordinate: Coordinate(uncheckedLatitude: fixes[$0].latitude, longitude: fixes[$0].longitude))
        }
        let context = ReplayContext(
            scenario: sc, wallet: Hand.wallet, catalog: StoreCatalog(locations: stores, storeRadiusMeters: 100),
            refresher: BruteForceRefresher(locations: stores))
        let result = await BatchReplay.run(
            paths: paths, names: BatchReplay.displayNames(paths), strategies: try ["fixed", "bubble"].map(Strategy.parse),
            context: context, parallelism: parallelism)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-det-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try BatchReplay.writeOutputs(
            result.runs, summary: ReplaySummary(scenario: sc, wallet: Hand.wallet, runs: result.runs), scenario: sc, to: dir)
        var out: [String: Data] = [:]
        for f in files { out[(f as NSString).lastPathComponent] = try Data(contentsOf: URL(fileURLWithPath: f)) }
        return out
    }

    @Test func sameSeedSameBytes() async throws {
        let a = try await outputs(seed: 42, parallelism: 1)
        let b = try await outputs(seed: 42, parallelism: 4)
        let stems = ["trace-geolife-beijing_geolife_long_001_Trajectory_20081023055305.plt", "trace-gpx-slovenia-croatia-gpxpy_cerknicko-jezero.gpx"]
        let expected: [String] = stems.flatMap { [$0 + ".events.csv", $0 + ".html"] } + ["index.html", "summary.json"]
        #expect(a.keys.sorted() == expected.sorted())
        #expect(a == b)
        let c = try await outputs(seed: 43, parallelism: 1)
        #expect(a.first { $0.key.hasSuffix(".events.csv") }?.value != c.first { $0.key.hasSuffix(".events.csv") }?.value)
        let summary = String(decoding: a["summary.json"] ?? Data(), as: UTF8.self)
        #expect(summary.contains("\"oracle_total\"") && summary.contains("\"oracle_os_total\""))
        let html = String(decoding: a.first { $0.key.hasSuffix(".html") }?.value ?? Data(), as: UTF8.self)
        #expect(html.contains("<svg") && !html.contains("<script"))
    }

    @Test func oneTraceAloneReproducesItsBatchRow() async throws {
        let sc = try Hand.iosExact()
        let paths = [
            try SharedDatasets.path("trace-geolife-beijing/geolife_long/001/Trajectory/20081023055305.plt"),
            try SharedDatasets.path("trace-geolife-beijing/geolife_long/000/Trajectory/20081024020959.plt"),
        ]
        let trace = try TraceLoader.load(path: paths[0])
        let fixes = trace.fixes
        let stores = stride(from: 0, to: fixes.count, by: 80).map {
            Location(
                networkId: "acme", externalId: "\($0)", name: "Acme \($0)",
                coordinate: Coordinate(uncheckedLatitude: fixes[$0].latitude, longitude: fixes[$0].longitude))
        }
        var noisy = try Scenario.profile("ios")
        noisy.seed = sc.seed
        let context = ReplayContext(
            scenario: noisy, wallet: Hand.wallet, catalog: StoreCatalog(locations: stores, storeRadiusMeters: 50),
            refresher: BruteForceRefresher(locations: stores), keepEvents: false)
        let strategies = try ["guaranteed", "staged"].map(Strategy.parse)
        let batch = await BatchReplay.run(paths: paths, names: BatchReplay.displayNames(paths), strategies: strategies, context: context)
        // Alone, under another name: the seed comes from the fixes, not the name or the batch.
        let alone = await BatchReplay.run(paths: [paths[0]], names: ["renamed.plt"], strategies: strategies, context: context)
        let inBatch = try #require(batch.runs.first)
        let single = try #require(alone.runs.first)
        #expect(inBatch.seed == single.seed)
        #expect(inBatch.allRuns.map(\.metrics) == single.allRuns.map(\.metrics))
        #expect(inBatch.phoneFixes == single.phoneFixes)
    }
}
