import ArgumentParser
import CommandLineOutput
import Foundation
import Geo
import LocationStore
import OnCueClient
import RegionRefresh
import SyntheticData
import TraceReplay

/// `oncue-bench replay`: fixes replayed per second per core with the in-process engine.
struct BenchReplay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Fixes replayed per second (ios profile, in-process engine, synthetic store), on one core and on all cores.",
        discussion: """
            Builds an in-memory index of --locations synthetic locations (no SQLite), drives synthetic 1 Hz traces
            through the virtual phone (fix noise, OS fences, app, refresh calls) and reports fixes per second.

            Example:
              swift build -c release --package-path Benchmarks
              Benchmarks/.build/release/oncue-bench replay --locations 1000000 --fixes 2000000
            """
    )
    @Option(help: "Synthetic locations in the index.") var locations: Int = 1_000_000
    @Option(help: "Fixes per trace.") var fixes: Int = 1_000_000
    @Option(help: "Strategy.") var strategy: String = "guaranteed"
    @Option(help: "Parallel traces for the all-cores figure (default: cores).") var jobs: Int?
    @Flag(help: "Print JSON.") var json = false

    struct Figures: Encodable {
        var locations: Int
        var index_build_seconds: Double
        var strategy: String
        var fixes_per_trace: Int
        var single_core_fixes_per_second: Double
        var refresh_calls_per_trace: Int
        var jobs: Int
        var all_cores_fixes_per_second: Double
        var per_core_scaling: Double
    }

    func run() async throws {
        let synthetic = SyntheticLocations(count: locations)
        let t0 = Date()
        let index = LocationIndex.build(locations: synthetic, networks: synthetic.networks)
        let buildSeconds = Date().timeIntervalSince(t0)
        let engine = RegionRefreshEngine(index: index)
        // The densest place: the first synthetic location sits in a Zipf-weighted cluster.
        var iterator = synthetic.makeIterator()
        guard let first = iterator.next() else { throw ValidationError("--locations must be positive") }
        let wallet = Wallet(cards: (1...5).map { Wallet.Card(networkId: SyntheticLocations.networkId(rank: $0), name: "Chain \($0)") })
        let scenario = try Scenario.profile("ios")
        let context = ReplayContext(
            scenario: scenario, wallet: wallet, catalog: StoreCatalog(locations: [], storeRadiusMeters: 100),
            refresher: engine, keepEvents: false)
        let parsed = try Strategy.parse(strategy)
        func trace(_ i: Int) -> Trace {
            SyntheticTrace.drive(start: first.coordinate, count: fixes, seed: UInt64(i + 1), name: "bench-\(i)")
        }
        _ = await ReplayRunner.replayUnscored(
            SyntheticTrace.drive(start: first.coordinate, count: 10_000, seed: 99, name: "warm"),
            strategy: parsed, context: context)
        let singleStarted = ContinuousClock.now
        let singleRun = await ReplayRunner.replayUnscored(trace(0), strategy: parsed, context: context)
        let single = (fixes: singleRun.fixes, seconds: seconds(since: singleStarted), refreshCalls: singleRun.refreshCalls)
        let n = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let traces = (0..<n).map(trace)
        let start = Date()
        let total = await withTaskGroup(of: Int.self) { group in
            for t in traces { group.addTask { await ReplayRunner.replayUnscored(t, strategy: parsed, context: context).fixes } }
            return await group.reduce(0, +)
        }
        let wall = Date().timeIntervalSince(start)
        let singleRate = Double(single.fixes) / single.seconds
        let allRate = Double(total) / wall
        let f = Figures(
            locations: locations, index_build_seconds: buildSeconds, strategy: strategy, fixes_per_trace: fixes,
            single_core_fixes_per_second: singleRate, refresh_calls_per_trace: single.refreshCalls, jobs: n,
            all_cores_fixes_per_second: allRate, per_core_scaling: allRate / singleRate / Double(n))
        if json {
            print(try jsonString(f))
            return
        }
        print(
            String(
                format: "index: %@ locations in %.1f s; strategy %@, ios profile, %@ fixes per trace at 1 Hz",
                formatCount(locations), buildSeconds, strategy, formatCount(fixes)))
        print(
            textTable(
                ["run", "fixes", "seconds", "fixes/s", "refresh calls"],
                [
                    [
                        "1 trace, 1 core", formatCount(single.fixes), String(format: "%.3f", single.seconds), String(format: "%.0f", singleRate),
                        String(single.refreshCalls),
                    ],
                    ["\(n) traces, \(n) tasks", formatCount(total), String(format: "%.3f", wall), String(format: "%.0f", allRate), "-"],
                ]), terminator: "")
        print(String(format: "scaling: %.2f of linear over %d cores", f.per_core_scaling, n))
    }
}
