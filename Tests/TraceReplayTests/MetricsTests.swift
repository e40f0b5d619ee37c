import Foundation
import Testing
@testable import TraceReplay

/// Metrics and ground truth against hand-computed scenarios.
@Suite struct MetricsTests {
    @Test func percentilesNearestRank() {
        let v: [Double] = [100, 10, 90, 20, 80, 30, 70, 40, 60, 50]
        #expect(StrategyMetrics.percentile(v, 0.5) == 50)
        #expect(StrategyMetrics.percentile(v, 0.9) == 90)
        #expect(StrategyMetrics.percentile([5], 0.9) == 5)
        #expect(StrategyMetrics.percentile([], 0.5) == nil)
    }

    func visit(_ id: String, _ a: Double, _ d: Double) -> Visit {
        Visit(locationId: id, networkId: "acme", name: id, lat: 0, lon: 0, arrival: a, departure: d)
    }

    @Test func matchingByHand() {
        let rec = Recorder(keepEvents: true)
        let regionA = Hand.region("A", north: 0, radius: 100), regionB = Hand.region("B", north: 0, radius: 100), regionC = Hand.region("C", north: 0, radius: 100)
        rec.notify(region: regionA, locationId: "A", card: "Acme", at: 1_060)
        rec.notify(region: regionA, locationId: "A", card: "Acme", at: 1_100)
        rec.notify(region: regionC, locationId: "C", card: "Acme", at: 3_000)
        rec.started(regionB, key: "B", at: 4_000)
        rec.stopped(regionB, key: "B", at: 6_000)
        rec.refreshCalls = 4
        let visits = [visit("A", 1_000, 1_300), visit("B", 5_000, 5_200), visit("D", 7_000, 7_500)]
        let passes = [PassThrough(locationId: "C", networkId: "acme", time: 2_900)]
        let (m, outcomes) = MetricsCalculator.compute(strategy: "x", hours: 2, visits: visits, passThroughs: passes, recorder: rec, model: .init())
        #expect(m.visits == 3 && m.caught == 1)
        #expect(m.recall == 1.0 / 3)
        #expect(m.notifications == 3 && m.matchedNotifications == 2)
        #expect(m.precision == 2.0 / 3)
        #expect(m.passThroughNotifications == 1)
        #expect(m.delayP50 == 60 && m.delayP90 == 60)
        #expect(m.missedByDetection == 1, "B was monitored during its visit")
        #expect(m.missedNotMonitored == 1, "D never was")
        #expect(m.refreshCallsPerHour == 2)
        #expect(m.regionChurnPerHour == 1, "1 start + 1 stop in 2 h")
        #expect(outcomes.map(\.delay) == [60, nil, nil])
    }

    @Test func groundTruthVisitsAndPassThroughs() {
        // Store at 0 m with radius 100 (+10 m nominal accuracy = 110 m). Walk from -500 m north at 1 m/s (fixes every 10 s):
        // stop inside for 5 min, leave; later drive straight across at 50 m/s with fixes every 10 s (500 m apart).
        var pts: [(Double, Double)] = []
        for i in 0...40 { pts.append((Double(i) * 10, -500 + Double(i) * 10)) }           // reach -100 m at t = 400
        for i in 1...30 { pts.append((400 + Double(i) * 10, -100)) }                       // 5 min at -100 m (inside 110 m)
        for i in 1...60 { pts.append((700 + Double(i) * 10, -100 - Double(i) * 10)) }      // walk away south
        for i in 0...4 { pts.append((2_000 + Double(i) * 10, -1_250 + Double(i) * 500)) }  // -1250, -750, -250, 250, 750: no fix inside
        let trace = Hand.trace(pts)
        let stores = StoreCatalog(locations: [Hand.store("a", north: 0)], storeRadiusMeters: 100).stores
        let truth = GroundTruth.compute(trace, stores: stores, model: .init())
        #expect(truth.visits.count == 1)
        // The first fix within 110 m is the one at -110 m (t = 390); the last is at -110 m going south (t = 710).
        #expect(truth.visits.first?.arrival == 1_000_390.0)
        #expect(truth.visits.first?.departure == 1_000_710.0)
        #expect(truth.passThroughs.count == 1, "the fast chord from -250 m to 250 m crosses the circle")
        #expect(truth.passThroughs.first?.time == 1_002_025.0)
    }

    @Test func scenarioOverridesAndRejectsUnknownKeys() throws {
        let s = try Scenario.load(json: Data(#"{"profile": "android", "os": {"entry_overlap": 0.75}, "seed": 7}"#.utf8))
        #expect(s.profile == "android" && s.os.entryOverlap == 0.75 && s.os.maxRegions == 100 && s.seed == 7)
        #expect(throws: ScenarioError.self) { try Scenario.load(json: Data(#"{"os": {"max_region": 5}}"#.utf8)) }
        #expect(throws: ScenarioError.self) { try Scenario.profile("windows-phone") }
        #expect(throws: ScenarioError.self) { try Strategy.parse("guaranteed@0") }
    }
}
