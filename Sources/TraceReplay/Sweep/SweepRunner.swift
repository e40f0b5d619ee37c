import Foundation
import OnCueClient
import OnCueContract
import RegionRefresh

/// Runs a sweep: every scenario variant × seed × trace as one job, all jobs in parallel, then per grid point the
/// batch totals of each seed and their intervals.
package enum SweepRunner {
    /// `refreshers` holds one engine per radius scale the variants use.
    package static func run(
        _ traces: [LoadedTrace], grid: SweepGrid, variants: [SweepGrid.Variant], seeds: [UInt64], wallet: Wallet,
        catalog: StoreCatalog, refreshers: [Double: any RegionRefreshing],
        parallelism: Int = ProcessInfo.processInfo.activeProcessorCount,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> SweepResult {
        let started = ContinuousClock.now
        var contexts: [[ReplayContext]] = []
        var parsed: [[Strategy]] = []
        for v in variants {
            guard let refresher = refreshers[v.radiusScale] else { throw ScenarioError.invalid("no engine for radius scale \(v.radiusScale)") }
            let radius = v.scenario.groundTruth.storeRadiusMeters
            let variantCatalog =
                catalog.storeRadiusMeters == radius
                ? catalog
                : StoreCatalog(locations: catalog.stores.map(\.location), storeRadiusMeters: radius, categories: catalog.categories)
            contexts.append(
                seeds.map { seed in
                    var sc = v.scenario
                    sc.seed = seed
                    return ReplayContext(scenario: sc, wallet: wallet, catalog: variantCatalog, refresher: refresher, keepEvents: false)
                })
            parsed.append(try v.strategies.map(Strategy.parse))
        }
        struct Job: Sendable { var variant: Int, seed: Int, trace: Int }
        var jobs: [Job] = []
        for vi in variants.indices { for si in seeds.indices { for ti in traces.indices { jobs.append(Job(variant: vi, seed: si, trace: ti)) } } }
        let frozenContexts = contexts
        let frozenStrategies = parsed
        let results = await BatchReplay.inParallel(jobs, parallelism: parallelism, progress: progress) { job -> [StrategyMetrics] in
            let t = traces[job.trace]
            let run = await ReplayRunner.run(
                t.trace, truth: t.truth, strategies: frozenStrategies[job.variant],
                context: frozenContexts[job.variant][job.seed])
            return run.allRuns.map(\.metrics)
        }
        var persons: [String: Int] = [:]
        let personOf = traces.map { t in
            let person = ClusterBootstrap.person(ofPath: t.path)
            if let known = persons[person] { return known }
            persons[person] = persons.count
            return persons.count - 1
        }
        let personCount = persons.count
        var points: [SweepResult.Point] = []
        for (vi, v) in variants.enumerated() {
            let names = v.strategies + ["oracle-os", "ideal-os", "oracle"]
            func totals(_ k: Int) -> [StrategyMetrics] {
                seeds.indices.map { si in
                    let parts = traces.indices.map { ti in results[(vi * seeds.count + si) * traces.count + ti][k] }
                    return StrategyMetrics.total(parts, strategy: names[k])
                }
            }
            let oracleOS = totals(v.strategies.count)
            // Each person's counts over their traces and every seed, for the intervals over people.
            func peopleCounts(_ k: Int) -> [ClusterBootstrap.Counts] {
                var counts = [ClusterBootstrap.Counts](repeating: .init(), count: personCount)
                for si in seeds.indices {
                    for ti in traces.indices { counts[personOf[ti]].add(.init(results[(vi * seeds.count + si) * traces.count + ti][k])) }
                }
                return counts
            }
            let settings = Dictionary(v.settings.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
            let suffix = v.settings.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
            for k in names.indices {
                let label = suffix.isEmpty ? names[k] : "\(names[k]) \(suffix)"
                var point = SweepResult.point(
                    label: label, strategy: names[k], settings: settings, perSeed: k == v.strategies.count ? oracleOS : totals(k),
                    oracleOS: oracleOS)
                point.peopleIntervals = ClusterBootstrap.intervals(peopleCounts(k), seed: seeds.first ?? 0)
                points.append(point)
            }
        }
        let d = started.duration(to: .now)
        var axes: [String: [String]] = [:]
        for a in grid.axes { axes[a.name] = a.values }
        return SweepResult(
            axes: axes, seeds: seeds, traces: traces.count, people: personCount, hours: traces.reduce(0) { $0 + $1.trace.activeSeconds } / 3600,
            points: points, wallSeconds: Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
    }
}
