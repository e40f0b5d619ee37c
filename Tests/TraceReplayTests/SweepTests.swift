import Foundation
import LocationStore
import OnCueClient
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
        let clipped = recall.clipped(to: SweepResult.range(of: "served_recall", seeds: [1, 1, 0.6]))
        #expect(clipped.high == 1 && clipped.low == recall.low && clipped.mean == recall.mean)
        let calls = try #require(Interval([0, 0, 3]))
        #expect(calls.clipped(to: SweepResult.range(of: "refresh_calls_per_hour", seeds: [0, 0, 3])).low == 0)
        // A delay interval goes below 0 only when a seed's delay did (a card before arrival).
        #expect(SweepResult.range(of: "delay_p90_seconds", seeds: [100, 3_000]).lowerBound == 0)
        #expect(SweepResult.range(of: "delay_p90_seconds", seeds: [-40, 3_000]).lowerBound == -40)
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
        #expect(result.points.count == 2 * 5, "2 strategies and 3 references per cool-down")
        for (vi, v) in variants.enumerated() {
            for (si, seed) in seeds.enumerated() {
                var s = v.scenario
                s.seed = seed
                let one = await ReplayRunner.run(
                    trace, strategies: try v.strategies.map(Strategy.parse),
                    context: ReplayContext(scenario: s, wallet: Hand.wallet, catalog: catalog, refresher: refresher))
                // The references bound: oracle serves every moment with no wrong card, and nothing serves more.
                #expect(one.oracle.metrics.servedRecall == 1 && one.oracle.metrics.precision == 1)
                #expect(one.allRuns.allSatisfy { $0.metrics.served <= one.oracle.metrics.served })
                #expect(one.allRuns.map(\.strategy.name).suffix(3) == ["oracle-os", "ideal-os", "oracle"])
                for (k, run) in one.allRuns.enumerated() {
                    let point = result.points[vi * 5 + k]
                    #expect(
                        point.perSeed[si].recall == run.metrics.recall && point.perSeed[si].servedRecall == run.metrics.servedRecall
                            && point.perSeed[si].refreshCalls == run.metrics.refreshCalls
                            && point.perSeed[si].notifications == run.metrics.notifications, "\(point.label) seed \(seed)")
                }
            }
        }
        let p = try #require(result.points.first)
        #expect(p.label == "guaranteed cooldown=600")
        // Three stops 23 min apart: three card moments with a 10 min cool-down, one with an hour's.
        #expect(result.points[4].perSeed.first?.cardMoments == 3 && result.points[9].perSeed.first?.cardMoments == 1)
        #expect(result.points[4].strategy == "oracle" && result.points[4].peopleIntervals["served_recall"]?.mean == 1)
        let recalls = p.perSeed.compactMap(\.servedRecall)
        #expect(p.intervals["served_recall"]?.mean == recalls.reduce(0, +) / Double(recalls.count))
        // One person: the pooled figure over both seeds, and an interval over one person has no width.
        let served = p.perSeed.reduce(0) { $0 + $1.served }
        let moments = p.perSeed.reduce(0) { $0 + $1.cardMoments }
        #expect(result.people == 1 && p.peopleIntervals["served_recall"]?.mean == Double(served) / Double(moments))
        #expect(p.peopleIntervals["served_recall"]?.low == p.peopleIntervals["served_recall"]?.high)
    }

    /// Resampling people: the estimate is the pooled ratio; the interval holds it, widens with people who differ,
    /// and is the same for the same seed. GeoLife's `<person>/Trajectory/<file>` groups a person's files.
    @Test func intervalsOverPeople() throws {
        #expect(ClusterBootstrap.person(ofPath: "/d/geolife/010/Trajectory/2008.plt") == "geolife user 010")
        #expect(
            ClusterBootstrap.person(ofPath: "/a/long/000/Trajectory/1.plt") == ClusterBootstrap.person(ofPath: "/b/people/000/Trajectory/2.plt"),
            "one GeoLife user in two folders is one person")
        #expect(ClusterBootstrap.person(ofPath: "walk-01.gpx") == "walk-01.gpx")
        func person(served: Int, of moments: Int) -> ClusterBootstrap.Counts {
            var m = StrategyMetrics(strategy: "x")
            m.cardMoments = moments
            m.served = served
            m.hours = 1
            return ClusterBootstrap.Counts(m)
        }
        let alike = (0..<20).map { _ in person(served: 5, of: 10) }
        let same = try #require(ClusterBootstrap.intervals(alike, seed: 1)["served_recall"])
        #expect(same.mean == 0.5 && same.low == 0.5 && same.high == 0.5 && same.n == 20)
        let mixed = (0..<20).map { i in person(served: i % 2 == 0 ? 9 : 1, of: 10) }
        let wide = try #require(ClusterBootstrap.intervals(mixed, seed: 1)["served_recall"])
        #expect(wide.mean == 0.5 && wide.low < 0.4 && wide.high > 0.6 && wide.low >= 0.1 && wide.high <= 0.9)
        #expect(ClusterBootstrap.intervals(mixed, seed: 1)["served_recall"] == wide)
    }
}
