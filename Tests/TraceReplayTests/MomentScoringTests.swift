import Foundation
import Geo
import LocationStore
import OnCueClient
import RegionRefresh
import Testing

@testable import TraceReplay

/// Card moments, matching and the loss split against hand-computed cases and a brute-force grouping.
@Suite struct MomentScoringTests {
    @Test func percentilesNearestRank() {
        let v: [Double] = [100, 10, 90, 20, 80, 30, 70, 40, 60, 50]
        #expect(StrategyMetrics.percentile(v, 0.5) == 50)
        #expect(StrategyMetrics.percentile(v, 0.9) == 90)
        #expect(StrategyMetrics.percentile([5], 0.9) == 5)
        #expect(StrategyMetrics.percentile([], 0.5) == nil)
    }

    /// Brute force: two visits of one network belong together when their intervals, each widened by the gap, touch;
    /// a moment is a connected component of that relation (transitive closure by repeated passes).
    func bruteMoments(_ visits: [Visit], gap: Double) -> Set<[String]> {
        var group = Array(visits.indices)
        var changed = true
        while changed {
            changed = false
            for i in visits.indices {
                for j in visits.indices where i < j && visits[i].networkId == visits[j].networkId && group[i] != group[j] {
                    let a = visits[i]
                    let b = visits[j]
                    if max(a.arrival, b.arrival) <= min(a.departure, b.departure) + gap {
                        let (keep, drop) = (min(group[i], group[j]), max(group[i], group[j]))
                        for k in group.indices where group[k] == drop { group[k] = keep }
                        changed = true
                    }
                }
            }
        }
        var members: [Int: [String]] = [:]
        for (i, g) in group.enumerated() { members[g, default: []].append("\(visits[i].locationId)@\(Int(visits[i].arrival))") }
        return Set(members.values.map { $0.sorted() })
    }

    @Test func cardMomentsMatchBruteForceGrouping() {
        var rng = SeededRandom(seed: 19)
        for round in 0..<200 {
            let count = Int.random(in: 0...12, using: &rng)
            let visits = (0..<count).map { i -> Visit in
                let a = Double(Int.random(in: 0...20_000, using: &rng))
                return Hand.visit(
                    "s\(i)", a, a + Double(Int.random(in: 120...2_400, using: &rng)), network: ["a", "b", "c"][Int.random(in: 0...2, using: &rng)])
            }
            let gap = [0.0, 600, 3_600][round % 3]
            let moments = CardMoments.merge(visits, gapSeconds: gap)
            let got = Set(moments.map { m in m.visits.map { "\($0.locationId)@\(Int($0.arrival))" }.sorted() })
            #expect(got == bruteMoments(visits, gap: gap), "round \(round)")
            for m in moments {
                #expect(m.arrival == m.visits.map(\.arrival).min() && m.departure == m.visits.map(\.departure).max())
                #expect(m.visits.allSatisfy { $0.networkId == m.networkId })
            }
        }
    }

    func input(_ moments: [CardMoment], visits: [Visit], oracleOSCaught: Set<Int>? = []) -> MomentScoring.Input {
        MomentScoring.Input(
            strategy: "x", hours: 2, moments: moments, visits: visits, passThroughs: [], model: GroundTruthModel(),
            cooldownSeconds: 3_600, oracleOSCaught: oracleOSCaught)
    }

    func note(_ t: Double, _ ids: [String], network: String = "acme") -> CardNotification {
        CardNotification(time: t, networkId: network, locationIds: ids, card: "Acme", trigger: .client(.entry), distance: 0)
    }

    @Test func matchingStatusAndPrecisionByHand() {
        // Model: match from 300 s before arrival to departure; on time from 120 s before to 60 s after arrival.
        let visits = [
            Hand.visit("A", 1_000, 1_300), Hand.visit("A2", 1_200, 1_500), Hand.visit("B", 10_000, 10_400),
            Hand.visit("C", 20_000, 20_300), Hand.visit("D", 30_000, 30_200, network: "zeta"),
        ]
        let moments = CardMoments.merge(visits, gapSeconds: 3_600)
        #expect(moments.count == 4, "A and A2 overlap: one moment")
        let rec = Recorder(keepEvents: false)
        rec.notify(note(1_030, ["A"]))  // on time (+30 s) for the A moment
        rec.notify(note(1_400, ["A2"]))  // a duplicate of the same moment
        rec.notify(note(9_750, ["B"]))  // 250 s early: caught, early
        rec.notify(note(20_200, ["X", "C"]))  // late (+200 s), credited through a merged id
        rec.notify(note(25_000, ["C"]))  // no moment: wrong
        rec.notify(note(30_100, ["E"], network: "acme"))  // zeta's moment, an Acme card: wrong
        let (m, outcomes) = MomentScoring.score(input(moments, visits: visits), recorder: rec)
        #expect(m.cardMoments == 4 && m.caught == 3 && m.recall == 0.75)
        #expect(outcomes.map(\.status) == [.onTime, .early, .late, .missed])
        #expect(outcomes.map(\.delay) == [30, -250, 200, nil])
        #expect(m.onTime == 1 && m.early == 1 && m.late == 1)
        #expect(m.notifications == 6 && m.correctNotifications == 4 && m.duplicates == 1)
        #expect(m.precisionBeforeLeaving == 4.0 / 6)
        // In time to use (till: arrival + min(600 s, half the stay)): A's till is 1,250 (1,030 serves it, the
        // duplicate at 1,400 is past it), B's 10,200 (the early card serves it), C's 20,150 (the card at 20,200 is late).
        #expect(m.served == 2 && m.servedRecall == 0.5 && m.servedNotifications == 2 && m.precision == 2.0 / 6)
        #expect(m.cardBy == [2, 2, 3, 3], "delays 30, -250 and 200 s against +1, +2, +5 and +10 min")
        // Per location: A (1,030 credited to A), A2 (1,400), B, C (through the merged id); D is zeta's, not caught.
        #expect(m.locationVisits == 5 && m.locationCaught == 4)
    }

    /// The card in time to use it: a long stay's till comes 10 minutes after arrival, not at departure; a category's
    /// own till time applies to its networks; a card on a walk-by (no moment) is wrong either way.
    @Test func servedWindowByHand() {
        let visits = [
            Hand.visit("L", 0, 7_200),  // a two-hour stay: till at +600 s
            Hand.visit("K", 10_000, 11_000, network: "coffee"),  // till at +120 s (the category's)
            Hand.visit("S", 30_000, 30_300),  // a five-minute stop: till at +150 s (half the stay)
        ]
        let moments = CardMoments.merge(visits, gapSeconds: 0)
        let rec = Recorder(keepEvents: false)
        rec.notify(note(900, ["L"]))  // +15 min: before leaving, not in time
        rec.notify(note(10_200, ["K"], network: "coffee"))  // +200 s at a coffee shop: late
        rec.notify(note(20_000, ["W"]))  // a walk-by: no moment
        rec.notify(note(30_100, ["S"]))  // +100 s: served
        var scoring = input(moments, visits: visits)
        scoring.model.payAfterByCategory = [.init(category: "cafe", seconds: 120)]
        scoring.categories = ["coffee": "cafe"]
        let (m, outcomes) = MomentScoring.score(scoring, recorder: rec)
        #expect(m.caught == 3 && m.served == 1 && m.servedRecall == 1.0 / 3)
        #expect(m.precision == 1.0 / 4 && m.precisionBeforeLeaving == 3.0 / 4)
        #expect(outcomes.map(\.delay) == [900, 200, 100])
        #expect(m.cardBy == [0, 1, 2, 2], "delays 900, 200 and 100 s")
        #expect(scoring.model.tills(moments[0], category: nil) == [Till(arrival: 0, payBy: 600)])
        #expect(scoring.model.tills(moments[2], category: nil) == [Till(arrival: 30_000, payBy: 30_150)])
    }

    /// A person who leaves and comes back within the cool-down is one moment (one card answers it) but pays twice: a
    /// card at the return visit is in time for its till, and its delay counts from the return; a visit that begins
    /// before the first till only lengthens that stay.
    @Test func aReturnVisitIsATillOfItsOwn() {
        let visits = [
            Hand.visit("A", 0, 400),  // a short stop: till at +200 s
            Hand.visit("A2", 150, 300),  // the store next door of the same chain, within the first till
            Hand.visit("A", 2_000, 2_600),  // back 27 minutes later: till at 2,300
        ]
        let moments = CardMoments.merge(visits, gapSeconds: 3_600)
        #expect(moments.count == 1)
        let model = GroundTruthModel()
        #expect(model.tills(moments[0], category: nil) == [Till(arrival: 0, payBy: 200), Till(arrival: 2_000, payBy: 2_300)])
        for (time, served, delay) in [(2_100.0, true, 100.0), (1_000.0, false, 1_000.0), (1_800.0, true, -200.0), (2_400.0, false, 400.0)] {
            let rec = Recorder(keepEvents: false)
            rec.notify(note(time, ["A"]))
            let (m, outcomes) = MomentScoring.score(input(moments, visits: visits), recorder: rec)
            #expect(m.caught == 1 && m.served == (served ? 1 : 0) && m.precision == (served ? 1 : 0), "card at \(time)")
            #expect(outcomes.first?.delay == delay && outcomes.first?.cardTime == time, "card at \(time)")
        }
        // A late card at the first visit and one in time at the return: the moment is served, by the second.
        let rec = Recorder(keepEvents: false)
        rec.notify(note(1_000, ["A"]))
        rec.notify(note(2_050, ["A"]))
        let (m, outcomes) = MomentScoring.score(input(moments, visits: visits), recorder: rec)
        #expect(m.served == 1 && m.servedNotifications == 1 && outcomes.first?.delay == 50)
    }

    /// A stay the recording broke in two (the trace's segments split at the gap) is one moment across the gap: a card
    /// in the gap but by the till serves it; one after the till, at the second part, came only before leaving.
    @Test func aRecordingGapInsideAStay() {
        // 10 minutes unrecorded between; the first part ends with the recording, not with the person seen leaving.
        let visits = [Hand.visit("G", 0, 300, seenLeaving: false), Hand.visit("G", 900, 2_400)]
        let moments = CardMoments.merge(visits, gapSeconds: 3_600)
        #expect(moments.count == 1 && moments[0].departure == 2_400)
        #expect(GroundTruthModel().tills(moments[0], category: nil) == [Till(arrival: 0, payBy: 600)], "min(600 s, half of 2,400 s)")
        for (time, served) in [(450.0, true), (1_000.0, false)] {
            let rec = Recorder(keepEvents: false)
            rec.notify(note(time, ["G"]))
            let (m, _) = MomentScoring.score(input(moments, visits: visits), recorder: rec)
            #expect(m.caught == 1 && m.served == (served ? 1 : 0) && m.precision == (served ? 1 : 0), "card at \(time)")
        }
    }

    @Test func lossSplitByHand() {
        let visits = [
            Hand.visit("P", 1_000, 1_300), Hand.visit("Q", 10_000, 10_300), Hand.visit("R", 20_000, 20_300),
            Hand.visit("S", 30_000, 30_300), Hand.visit("T", 40_000, 40_300), Hand.visit("U", 50_000, 50_300, network: "beta"),
        ]
        let moments = CardMoments.merge(visits, gapSeconds: 0)
        let rec = Recorder(keepEvents: false)
        // P: the cool-down held the card back during the visit.
        rec.suppress(note(1_050, ["P"]))
        // Q: the card was shown 20 min before (a walk-by at another Acme), so the visit had none: policy.
        rec.notify(note(8_800, ["elsewhere"]))
        // R: monitored, nothing reported; oracle-os caught it (index 2): region detection.
        let region = { (id: String) in Hand.region(id, north: 0, radius: 50) }
        rec.started(region("R"), key: "r", role: .store, at: 19_000)
        rec.stopped(region("R"), key: "r", role: .store, at: 21_000)
        // S: monitored through a merged id, nothing reported, oracle-os missed it too: OS detection.
        let merged = Hand.region("lead", north: 0, radius: 50, merged: ["S"])
        rec.started(merged, key: "s", role: .small, at: 29_000)
        rec.stopped(merged, key: "s", role: .small, at: 31_000)
        // T: monitored only before the match window (ended 400 s before arrival): not monitored.
        rec.started(region("T"), key: "t", role: .store, at: 30_500)
        rec.stopped(region("T"), key: "t", role: .store, at: 39_600)
        // U: withdrawn by the confirmation delay.
        rec.withdraw(note(50_100, ["U"], network: "beta"), at: 50_100)
        let (m, outcomes) = MomentScoring.score(input(moments, visits: visits, oracleOSCaught: [2]), recorder: rec)
        #expect(outcomes.map(\.miss) == [.policy, .policy, .regionDetection, .osDetection, .notMonitored, .policy])
        #expect(m.missedPolicy == 3 && m.missedRegionDetection == 1 && m.missedOSDetection == 1 && m.missedNotMonitored == 1)
        #expect(m.suppressed == 1 && m.withdrawn == 1 && m.caught == 0)
        #expect(m.missedPolicy + m.missedRegionDetection + m.missedOSDetection + m.missedNotMonitored == m.cardMoments - m.caught)
        // Scoring oracle-os itself (no set yet): a monitored miss is the OS's.
        let (own, _) = MomentScoring.score(input(moments, visits: visits, oracleOSCaught: nil), recorder: rec)
        #expect(own.missedOSDetection == 2 && own.missedRegionDetection == 0)
    }

    @Test func groundTruthVisitsAndPassThroughs() {
        // Store at 0 m with radius 100 (+10 m nominal accuracy = 110 m). Walk from -500 m north at 1 m/s (fixes every 10 s):
        // stop inside for 5 min, leave; later drive straight across at 50 m/s with fixes every 10 s (500 m apart).
        var pts: [(Double, Double)] = []
        for i in 0...40 { pts.append((Double(i) * 10, -500 + Double(i) * 10)) }  // reach -100 m at t = 400
        for i in 1...30 { pts.append((400 + Double(i) * 10, -100)) }  // 5 min at -100 m (inside 110 m)
        for i in 1...60 { pts.append((700 + Double(i) * 10, -100 - Double(i) * 10)) }  // walk away south
        for i in 0...4 { pts.append((2_000 + Double(i) * 10, -1_250 + Double(i) * 500)) }  // -1250, -750, -250, 250, 750: no fix inside
        let trace = Hand.trace(pts)
        let stores = StoreCatalog(locations: [Hand.store("a", north: 0)], storeRadiusMeters: 100).stores
        let truth = GroundTruth.compute(trace, stores: stores, model: .init())
        #expect(truth.visits.count == 1)
        // The first fix within 110 m is the one at -110 m (t = 390); the last is at -110 m going south (t = 710).
        #expect(truth.visits.first?.arrival == 1_000_390.0)
        #expect(truth.visits.first?.departure == 1_000_710.0)
        #expect(truth.visits.first?.seenLeaving == true)
        // The same trace cut while the person stands in the store: the visit ends with the recording.
        let cut = GroundTruth.compute(Hand.trace(Array(pts.prefix(60))), stores: stores, model: .init())
        #expect(cut.visits.count == 1 && cut.visits.first?.seenLeaving == false)
        #expect(truth.passThroughs.count == 1, "the fast chord from -250 m to 250 m crosses the circle")
        #expect(truth.passThroughs.first?.time == 1_002_025.0)
    }
}
