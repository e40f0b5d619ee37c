import Foundation
import LocationStore
import RegionRefresh
import Testing

@testable import TraceReplay

/// Sweep grids, intervals, and a small sweep against the same runs made one by one.
@Suite struct SweepTests {
    @Test func intervalByHand() throws {
        // 1…5: mean 3, sample sd √2.5, t(0.975, 4) = 2.776, half-width 2.776 × √(2.5 / 5).
        let i = try #require(Interval([1, 2, 3, 4, 5]))
        #expect(i.mean == 3 && i.n == 5)
        #expect(abs((i.high - i.mean) - 2.776 * (0.5).squareRoot()) < 1e-12)
        #expect(abs((i.mean - i.low) - (i.high - i.mean)) < 1e-12)
        #expect(Interval([0.4])?.low == 0.4 && Interval([0.4])?.high == 0.4)
        #expect(Interval([]) == nil && Interval([.nan]) == nil)
    }

    @Test func intervalsStayWithinWhatTheMetricCanBe() throws {
        // Recall 1.0, 1.0, 0.6 over three seeds: the t-interval reaches past 100 %; shares stop at 1, counts at 0.
        let recall = try #require(Interval([1, 1, 0.6]))
        #expect(recall.high > 1)
        let clipped = recall.clipped(to: SweepResult.range(of: "recall", seeds: [1, 1, 0.6]))
        #expect(clipped.high == 1 && clipped.low == recall.low && clipped.mean == recall.mean)
        let calls = try #require(Interval([0, 0, 3]))
        #expect(calls.clipped(to: SweepResult.range(of: "refresh_calls_per_hour", seeds: [0, 0, 3])).low == 0)
        // A delay interval goes below 0 only when a seed's delay did (a card before arrival).
        #expect(SweepResult.range(of: "delay_p90_s", seeds: [100, 3_000]).lowerBound == 0)
        #expect(SweepResult.range(of: "delay_p90_s", seeds: [-40, 3_000]).lowerBound == -40)
    }

    @Test func gridCrossesEveryAxis() throws {
        let grid = try SweepGrid.parse(["strategy=guaranteed,staged", "max_regions=10,20", "cooldown=600,3600", "os.dwell_seconds=20,40,60"])
        let variants = try grid.variants(base: try Scenario.profile("ios"), strategies: ["fixed"])
        #expect(variants.count == 6, "cooldown × dwell; strategy and max_regions are replayed inside each")
        #expect(variants.allSatisfy { $0.strategies == ["guaranteed@10", "guaranteed@20", "staged@10", "staged@20"] })
        #expect(Set(variants.map { "\($0.scenario.app.cooldownSeconds)/\($0.scenario.os.dwellSeconds)" }).count == 6)
        let scaled = try SweepGrid.parse(["radius_scale=0.5,2"]).variants(base: try Scenario.profile("ios"), strategies: ["fixed"])
        #expect(scaled.map(\.radiusScale) == [0.5, 2] && scaled.allSatisfy { $0.strategies == ["fixed"] })
    }

    @Test(arguments: [
        "strategy", "=1,2", "cooldown=", "max_regions=0", "radius_scale=-1", "cooldown=soon", "os.no_such_key=1",
        "strategy=oracle", "strategy=staged+turbo", "app.cooldown_scope=galaxy", "max_regions=5,5",
    ])
    func badSweepsAreRefused(spec: String) {
        #expect(throws: ScenarioError.self) {
            try SweepGrid.parse([spec]).variants(base: try Scenario.profile("ios"), strategies: ["fixed"])
        }
    }

    @Test func scaledPolicyScalesEveryTierRadius() {
        let base = RadiusPolicy.standard
        let double = base.scaled(by: 2)
        for density in [50.0, 1_000, 8_000, 40_000] {
            for neighbours in [0, 30, 100] {
                let a = base.radius(
                    explicit: nil, networkDefault: nil, isLargeArea: false, venueRadius: nil, placeDensity: density, neighbors: neighbours)
                let b = double.radius(
                    explicit: nil, networkDefault: nil, isLargeArea: false, venueRadius: nil, placeDensity: density, neighbors: neighbours)
                #expect(abs(b.meters - 2 * a.meters) < 1e-9 && a.rule == b.rule)
            }
        }
        #expect(
            double.radius(explicit: 40, networkDefault: nil, isLargeArea: false, venueRadius: nil, placeDensity: 9_000, neighbors: 0).meters == 40,
            "a location's own radius is data, not policy")
    }

    @Test func smallSweepEqualsTheRunsOneByOne() async throws {
        let stores = (0..<6).map { Hand.store("s\($0)", north: Double($0) * 700 + 150, east: 20) }
        // Walk north at 1 m/s, stopping 4 minutes at every other store.
        var pts: [(Double, Double)] = []
        var t = 0.0
        for north in stride(from: 0.0, through: 4_000, by: 10) {
            pts.append((t, north))
            t += 10
            let stopHere = [150.0, 1_550, 2_950].contains(north)  // stores 0, 2 and 4
            if stopHere {
                for _ in 0..<24 {
                    pts.append((t, north))
                    t += 10
                }
            }
        }
        let trace = Hand.trace(pts)
        var sc = try Scenario.profile("ios")
        sc.groundTruth.storeRadiusMeters = 50
        let catalog = StoreCatalog(locations: stores, storeRadiusMeters: 50)
        let refresher = BruteForceRefresher(locations: stores, radius: 80)
        let grid = try SweepGrid.parse(["cooldown=600,3600"])
        let variants = try grid.variants(base: sc, strategies: ["guaranteed", "staged"])
        let seeds: [UInt64] = [7, 8]
        let loaded = [LoadedTrace(path: "hand", trace: trace, truth: nil)]
        let result = try await SweepRunner.run(
            loaded, grid: grid, variants: variants, seeds: seeds, wallet: Hand.wallet, catalog: catalog,
            refreshers: [1: refresher], parallelism: 2)
        #expect(result.points.count == 2 * 4, "2 strategies and 2 oracles per cool-down")
        for (vi, v) in variants.enumerated() {
            for (si, seed) in seeds.enumerated() {
                var s = v.scenario
                s.seed = seed
                let one = await ReplayRunner.run(
                    trace, strategies: try v.strategies.map(Strategy.parse),
                    context: ReplayContext(scenario: s, wallet: Hand.wallet, catalog: catalog, refresher: refresher))
                for (k, run) in one.allRuns.enumerated() {
                    let point = result.points[vi * 4 + k]
                    #expect(
                        point.perSeed[si].recall == run.metrics.recall && point.perSeed[si].refreshCalls == run.metrics.refreshCalls
                            && point.perSeed[si].notifications == run.metrics.notifications, "\(point.label) seed \(seed)")
                }
            }
        }
        let p = try #require(result.points.first)
        #expect(p.label == "guaranteed cooldown=600")
        // Three stops 23 min apart: three card moments with a 10 min cool-down, one with an hour's.
        #expect(result.points[3].perSeed.first?.cardMoments == 3 && result.points[7].perSeed.first?.cardMoments == 1)
        let recalls = p.perSeed.compactMap(\.recall)
        #expect(p.intervals["recall"]?.mean == recalls.reduce(0, +) / Double(recalls.count))
    }
}
