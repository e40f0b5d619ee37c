import Foundation
import Geo
import LocationStore
import OnCueClient
import OnCueContract
import RegionRefresh
import Testing

@testable import TraceReplay

/// The app model end to end on hand-built traces, against the brute-force refresher.
@Suite struct PhoneAppTests {
    func run(
        _ trace: Trace, stores: [Location], strategies: [String], scenario: Scenario? = nil,
        refresher: (any RegionRefreshing)? = nil
    ) async throws -> TraceRun {
        try await Hand.replay(trace, stores: stores, strategies: strategies, scenario: scenario, refresher: refresher)
    }

    /// Standing in a store from the first fix for 10 minutes.
    var standingInStore: Trace { Hand.trace((0...60).map { (Double($0) * 10, 0) }) }

    @Test func askingForStateCatchesTheStoreYouAreIn() async throws {
        let run = try await run(standingInStore, stores: [Hand.store("a", north: 20)], strategies: ["document", "fixed"])
        #expect(run.visits.count == 1 && run.moments.count == 1)
        let document = run.runs[0].metrics
        let fixed = run.runs[1].metrics
        // oracle-os asks for the state too, so document's miss is its region handling, not the OS's.
        #expect(document.caught == 0 && document.missedRegionDetection == 1, "no entry for a region already inside, and no state request")
        #expect(fixed.caught == 1 && fixed.notifications == 1)
        // Requested at launch (t = 0); the answer takes the OS's 5 s like an entry would.
        #expect(fixed.delayP50 == 5)
        #expect(run.oracle.metrics.caught == 1 && run.oracleOS.metrics.caught == 1)
    }

    @Test func cooldownSuppressesRepeats() async throws {
        // In, out (1 km), in again after 20 min, out, in again after 70 min: notified at 0 and 70 min, suppressed at 20.
        var pts: [(Double, Double)] = []
        func stay(_ from: Double, _ minutes: Int, _ north: Double) { for i in 0..<(minutes * 6) { pts.append((from + Double(i) * 10, north)) } }
        stay(0, 5, 0)
        stay(600, 5, 1_000)
        stay(1_200, 5, 0)
        stay(1_800, 50, 1_000)
        stay(4_800, 5, 0)
        let run = try await run(Hand.trace(pts), stores: [Hand.store("a", north: 0)], strategies: ["fixed"], scenario: try Hand.idealScenario())
        let picked: [ReplayEvent] = run.runs[0].events.filter { $0.kind == .notification || $0.kind == .suppressed }
        let kinds: [ReplayEvent.Kind] = picked.map(\.kind)
        let times: [Double] = picked.map { $0.time - 1_000_000 }
        #expect(kinds == [.notification, .suppressed, .notification])
        // The ideal OS's initial trigger fires at its next look (the second fix, 10 s in).
        #expect(times == [10, 1_200, 4_800])
    }

    @Test func moreRegionsThanTheOSAllowsFail() async throws {
        let stores = (0..<25).map { Hand.store("s\($0)", north: 5_000 + Double($0) * 300) }
        let run = try await run(standingInStore, stores: stores, strategies: ["guaranteed@25", "guaranteed"])
        #expect(run.runs[0].metrics.monitorFailures == 5)
        #expect(run.runs[1].metrics.monitorFailures == 0)
        #expect(run.runs[0].events.filter { $0.kind == .monitorFailed }.allSatisfy { $0.detail == "limit of 20 regions" })
    }

    @Test func literalDocumentNeedsBoth500mAnd6h() async throws {
        // Driving 10 km north at 10 m/s: "fixed" refreshes every ~500 m; the pseudo-code's AND never refreshes again within 6 h.
        let drive = Hand.trace((0...1_000).map { (Double($0) * 10, Double($0) * 100) })
        let run = try await run(drive, stores: [Hand.store("a", north: 9_000)], strategies: ["document", "fixed"])
        #expect(run.runs[0].metrics.refreshCalls == 1)
        #expect(run.runs[1].metrics.refreshCalls > 10)
    }

    @Test func failedRefreshKeepsRegionsAndRetriesWithBackoff() async throws {
        let stores = [Hand.store("a", north: 0), Hand.store("b", north: 3_000)]
        // Second call fails; the app keeps the first response's regions and retries no earlier than 30 s later.
        let drive = Hand.trace((0...400).map { (Double($0) * 10, Double($0) * 10) })
        let run = try await run(
            drive, stores: stores, strategies: ["fixed"], scenario: try Hand.idealScenario(),
            refresher: BruteForceRefresher(locations: stores, failCalls: [2]))
        let ev = run.runs[0].events
        let failed = try #require(ev.first { $0.kind == .refreshFailed })
        let nextRequest = try #require(ev.first { $0.kind == .refreshRequest && $0.time > failed.time })
        #expect(nextRequest.time - failed.time >= 30)
        #expect(!ev.contains { $0.kind == .monitorStop && $0.time == failed.time }, "a failure stops nothing")
        #expect(run.runs[0].metrics.refreshFailures == 1)
    }

    @Test func outageWindowFailsCalls() async throws {
        var sc = try Hand.idealScenario()
        sc.network.outages = [[0, 100]]
        let drive = Hand.trace((0...100).map { (Double($0) * 10, Double($0) * 10) })
        let run = try await run(drive, stores: [Hand.store("a", north: 500)], strategies: ["fixed"], scenario: sc)
        let ev = run.runs[0].events
        #expect(ev.first { $0.kind == .refreshFailed }?.detail == "outage")
        #expect(ev.contains { $0.kind == .refreshOK && $0.time >= 1_000_100 })
    }

    @Test func refreshRegionExitTriggersRefresh() async throws {
        let stores = (0..<30).map { Hand.store("s\($0)", north: Double($0) * 400 + 200, east: 150) }
        let drive = Hand.trace((0...600).map { (Double($0) * 10, Double($0) * 20) })
        let run = try await run(drive, stores: stores, strategies: ["bubble"], scenario: try Hand.idealScenario())
        let wakes = run.runs[0].events.filter { $0.kind == .wake && $0.detail == "refresh_region_exit" }
        #expect(!wakes.isEmpty)
        #expect(run.runs[0].intervals.contains { $0.isRefreshRegion })
    }

    /// A server that answers with one region standing for two locations (the engine's merge of same-network neighbours).
    struct MergingRefresher: RegionRefreshing {
        func refresh(_ request: RegionRefreshRequest, now: Date) async throws -> RegionRefreshResponse {
            RegionRefreshResponse(
                regions: [Hand.region("loc_acme_a", north: 0, radius: 150, merged: ["loc_acme_b"])], refreshAfterMeters: 5_000,
                cacheTtlSeconds: 21_600, serverTime: "2025-01-01T00:00:00Z", coverageGuaranteed: true)
        }
    }

    @Test func aMergedRegionCreditsEveryLocation() async throws {
        // Two Acme stores 40 m apart; the person visits b only. The region's lead is a.
        let stores = [Hand.store("a", north: 0), Hand.store("b", north: 40)]
        var sc = try Hand.idealScenario()
        sc.groundTruth.storeRadiusMeters = 10
        let trace = Hand.stays([(0, 10, 2_000), (600, 10, 40), (1_200, 10, 2_000)])
        let run = try await run(trace, stores: stores, strategies: ["guaranteed"], scenario: sc, refresher: MergingRefresher())
        #expect(run.visits.map(\.locationId) == ["loc_acme_b"])
        let m = run.runs[0].metrics
        #expect(m.caught == 1 && m.locationCaught == 1, "the notification fired by a's region counts at b")
        #expect(run.runs[0].notifications.first?.locationIds == ["loc_acme_a", "loc_acme_b"])
    }

    @Test func clampRegistersNoRegionBelowTheOSMinimum() async throws {
        let stores = (0..<5).map { Hand.store("s\($0)", north: Double($0) * 400) }
        let refresher = BruteForceRefresher(locations: stores, radius: 30)
        let run = try await run(standingInStore, stores: stores, strategies: ["guaranteed", "guaranteed+clamp"], refresher: refresher)
        #expect(!run.runs[0].intervals.isEmpty && run.runs[0].intervals.allSatisfy { $0.radiusMeters == 30 })
        // The floor travels in the request (the server merges and computes the refresh distance for it), not on the phone.
        #expect(!run.runs[1].intervals.isEmpty && run.runs[1].intervals.allSatisfy { $0.radiusMeters == 100 }, "iOS's 100 m")
    }

    @Test func confirmationWithdrawsWalkBys() async throws {
        // Ideal OS, card posted 120 s after the entry unless the exit comes first. The store's circle is 110 m.
        var sc = try Hand.idealScenario()
        sc.app.confirmSeconds = 120
        var pts: [(Double, Double)] = []
        for i in 0...60 { pts.append((Double(i) * 10, -300 + Double(i) * 10)) }  // walk through at 1 m/s: inside 220 s
        for i in 1...30 { pts.append((600 + Double(i) * 10, 300 + Double(i) * 100)) }  // hurry away
        let walkBy = try await run(Hand.trace(pts), stores: [Hand.store("a", north: 0)], strategies: ["fixed"], scenario: sc)
        #expect(walkBy.moments.count == 1, "220 s inside is a visit by the 120 s rule")
        var fast: [(Double, Double)] = []
        for i in 0...60 { fast.append((Double(i) * 10, -1_500 + Double(i) * 50)) }  // 5 m/s: inside about 45 s
        let passing = try await run(Hand.trace(fast), stores: [Hand.store("a", north: 0)], strategies: ["fixed"], scenario: sc)
        #expect(passing.moments.isEmpty)
        #expect(passing.runs[0].metrics.notifications == 0 && passing.runs[0].metrics.withdrawn == 1)
        // The 220 s pass-through is long enough: posted 120 s after the entry.
        let n = try #require(walkBy.runs[0].notifications.first)
        let entry = try #require(walkBy.runs[0].events.first { $0.kind == .enter })
        #expect(n.time - entry.time == 120)
    }

    @Test(arguments: [(AppSettings.CooldownScope.network, 1), (.location, 2)])
    func cooldownScope(scope: AppSettings.CooldownScope, notifications: Int) async throws {
        // Two Acme stores 500 m apart, visited 10 min apart: one card moment.
        var sc = try Hand.idealScenario()
        sc.app.cooldownScope = scope
        let trace = Hand.stays([(0, 5, 0), (300, 5, 250), (600, 5, 500)])
        let run = try await run(trace, stores: [Hand.store("a", north: 0), Hand.store("b", north: 500)], strategies: ["fixed"], scenario: sc)
        let m = run.runs[0].metrics
        #expect(run.moments.count == 1 && m.caught == 1)
        #expect(m.notifications == notifications && m.duplicates == notifications - 1)
        #expect(m.suppressed == (scope == .network ? 1 : 0))
    }

    /// iOS at every fix with exact positions and a 25 m store footprint (so the staged app's fix can tell).
    func stagedScenario() throws -> Scenario {
        var sc = try Hand.iosExact()
        sc.groundTruth.storeRadiusMeters = 25
        return sc
    }

    @Test func stagedWatchesTheStoreUntilArrival() async throws {
        // The server gives 50 m regions; staged widens them to 200 m. Walk north 1.25 m/s to the store at 1 km, stay 5 min.
        var pts: [(Double, Double)] = []
        for i in 0...80 { pts.append((Double(i) * 10, Double(i) * 12.5)) }
        for i in 1...30 { pts.append((800 + Double(i) * 10, 1_000)) }
        let stores = [Hand.store("a", north: 1_000)]
        let run = try await run(
            Hand.trace(pts), stores: stores, strategies: ["staged"], scenario: try stagedScenario(),
            refresher: BruteForceRefresher(locations: stores, radius: 50))
        let r = run.runs[0]
        #expect(r.intervals.contains { $0.role == .wide && $0.radiusMeters == 200 })
        let small = try #require(r.intervals.first { $0.role == .small })
        #expect(small.radiusMeters == 100, "the store's 25 m footprint, raised to iOS's 100 m")
        let n = try #require(r.notifications.first)
        #expect(n.trigger == .client(.storeRegion) && r.metrics.caught == 1)
        #expect(small.end == n.time, "the small region is given back once the card is shown")
        #expect(r.metrics.gpsSeconds == 8, "one fix of its own when the wide region woke it")
        #expect(r.metrics.refreshCalls >= 1)
    }

    @Test func stagedPassingByShowsNoCard() async throws {
        // Walk north along a line 80 m east of the store: inside the wide region's 100 m cushion, never within the
        // small region's 50 m one.
        var pts: [(Double, Double)] = []
        for i in 0...160 { pts.append((Double(i) * 10, Double(i) * 12.5)) }
        let (lat, lon) = Hand.point(north: 1_000, east: -80)
        let store = Location(networkId: "acme", externalId: "a", name: "Acme a", coordinate: Coordinate(uncheckedLatitude: lat, longitude: lon))
        let run = try await run(
            Hand.trace(pts), stores: [store], strategies: ["staged"], scenario: try stagedScenario(),
            refresher: BruteForceRefresher(locations: [store], radius: 50))
        let r = run.runs[0]
        #expect(r.intervals.contains { $0.role == .small }, "the wide region woke the app")
        #expect(r.notifications.isEmpty)
        #expect(r.events.contains { $0.kind == .exit && $0.detail == "wide" })
    }

    /// Pass the store at 1.5 m/s, turn back 400 m on at 1 m/s, and stay at the store 5 minutes; the ideal OS, a 100 m
    /// store region and a 25 m footprint (+10 m: the trace has no accuracy of its own), GPS resting or not.
    func gpsRun(approachSpeed: Double, strategy: String = "fixed+gps") async throws -> StrategyRun {
        var sc = try Hand.idealScenario()
        sc.groundTruth.storeRadiusMeters = 25
        sc.app.gpsApproachMetersPerSecond = approachSpeed
        var pts: [(Double, Double)] = []
        for i in 0...400 { pts.append((Double(i), -200 + 1.5 * Double(i))) }  // -200 m → +400 m
        for i in 1...400 { pts.append((400 + Double(i), 400 - Double(i))) }  // back to 0 m at t = 800
        for i in 1...300 { pts.append((800 + Double(i), 0)) }  // stay 5 min
        let stores = [Hand.store("a", north: 0)]
        let run = try await run(
            Hand.trace(pts), stores: stores, strategies: [strategy], scenario: sc,
            refresher: BruteForceRefresher(locations: stores, radius: 100))
        #expect(run.moments.count == 1)
        return run.runs[0]
    }

    @Test func gpsConfirmsTheStayBeforeTheCard() async throws {
        let r = try await gpsRun(approachSpeed: 0)
        #expect(r.notifications.count == 1 && r.metrics.precision == 1, "the pass (47 s within 35 m, moving) shows no card")
        let n = try #require(r.notifications.first)
        #expect(n.trigger == .client(.gps))
        // The stay shows once the 60 s window's halves lie less than 0.5 m/s apart: at 831 s the window (with the fix
        // before it, 770 s) splits at 800.5 s; the earlier half (30 m north to the door) averages 15 m, the later one
        // 0 m, their mean times 31 s apart (15.5 m at 0.5 m/s). At 830 s it is 16 m against 15.5.
        #expect(n.time - 1_000_000 == 831)
        // GPS never resting: on from the entry at 100 m south (t = 67) to the OS's exit, the first fix past 100 m north
        // (t = 201), and from the re-entry at 100 m (t = 700) to the card.
        #expect(r.metrics.gpsSeconds == (201 - 67) + (831 - 700))
    }

    @Test func gpsRestsWhileThePersonCannotBeAtTheStore() async throws {
        let always = try await gpsRun(approachSpeed: 0)
        let resting = try await gpsRun(approachSpeed: 2)
        #expect(resting.notifications.map(\.time) == always.notifications.map(\.time), "resting loses nothing: the same card at the same time")
        // At 2 m/s GPS may rest only while the person is more than 16 m (two 8 s fixes) beyond the footprint's 35 m
        // reach, so it is on at least from 51 m south to 35 m north on the pass (t = 100–157 s) and from 51 m north to
        // the card (t = 749–831 s); it rests while they are 67–100 m off on either side.
        #expect(resting.metrics.gpsSeconds >= (157 - 100) + (831 - 749))
        #expect(resting.metrics.gpsSeconds <= always.metrics.gpsSeconds - 60)
    }

    @Test func motionKeepsGPSOffWhileThePersonWalks() async throws {
        let resting = try await gpsRun(approachSpeed: 2)
        let motion = try await gpsRun(approachSpeed: 2, strategy: "fixed+gps+motion")
        // The pass and the walk back (1 m/s) are walked throughout: no GPS. At the door from t = 800 s, the median of
        // the last 30 s lies within 30 m of the median a minute before from 845 s on (that window, 755–785 s, has its
        // median 30 m north: the line is crossed exactly); the sensor, 20 s late, says "still" at 865 s. GPS comes on
        // with a fix's 8 s lead, and the card follows a whole 60 s window later.
        let n = try #require(motion.notifications.first)
        #expect(motion.notifications.count == 1 && abs(n.time - 1_000_925) <= 1, "card at \(n.time - 1_000_000)")
        #expect(abs(motion.metrics.gpsSeconds - (925 - 857)) <= 1)
        #expect(motion.metrics.gpsSeconds < resting.metrics.gpsSeconds / 2)
    }

    @Test(arguments: [10.0, 20.0, 30.0])
    func everyGPSCardIsPaidForWithAWindowOfGPS(fixEvery: Double) async throws {
        // Sparse fixes: walk north at 1.5 m/s to the store and stay ten minutes. Whatever the OS's report falls on —
        // the sensor saying "walking" or already "still" — the card needs a whole 60 s window of the app's GPS, and
        // GPS time is charged for it.
        var sc = try Hand.iosExact()
        sc.groundTruth.storeRadiusMeters = 25
        var pts: [(Double, Double)] = []
        for t in stride(from: 0.0, through: 400, by: fixEvery) { pts.append((t, -600 + 1.5 * t)) }
        for t in stride(from: 400.0 + fixEvery, through: 1_000, by: fixEvery) { pts.append((t, 0)) }
        let stores = [Hand.store("a", north: 0)]
        let run = try await run(
            Hand.trace(pts), stores: stores, strategies: ["fixed+gps+motion"], scenario: sc,
            refresher: BruteForceRefresher(locations: stores, radius: 100))
        let r = run.runs[0]
        #expect(r.notifications.count == 1 && r.metrics.caught == 1)
        #expect(r.metrics.gpsSeconds >= 60, "GPS seconds \(r.metrics.gpsSeconds)")
    }

    @Test func motionNeedsGPS() {
        #expect(throws: ScenarioError.self) { try Strategy.parse("guaranteed+motion") }
        #expect((try? Strategy.parse("guaranteed+clamp+gps+motion"))?.motion == true)
    }

    @Test func gpsRestsWhileThePersonStaysBesideTheStore() async throws {
        // Fifteen minutes in the shop next door, 45 m from the card store: inside its 100 m region, 10 m beyond the
        // footprint's reach. Each 60 s window shows a stay that is not at the store; GPS then rests 300 s.
        var sc = try Hand.idealScenario()
        sc.groundTruth.storeRadiusMeters = 25
        let stores = [Hand.store("a", north: 0)]
        let run = try await run(
            Hand.trace((0...900).map { (Double($0), 45) }), stores: stores, strategies: ["fixed+gps"], scenario: sc,
            refresher: BruteForceRefresher(locations: stores, radius: 100))
        let r = run.runs[0]
        #expect(run.moments.isEmpty && r.notifications.isEmpty)
        // Three windows (0–60, 360–420 and 720–780 s, each with its 8 s fix lead after a rest), not 900 s.
        #expect(r.metrics.gpsSeconds >= 3 * 60 && r.metrics.gpsSeconds <= 3 * 60 + 2 * 8 + 3)
    }

    @Test func refreshesWaitForTheMinimumInterval() async throws {
        var sc = try Hand.idealScenario()
        sc.app.minRefreshIntervalSeconds = 1_800
        let drive = Hand.trace((0...720).map { (Double($0) * 10, Double($0) * 100) })  // 72 km in 2 h
        let stores = (0..<40).map { Hand.store("s\($0)", north: Double($0) * 2_000) }
        let run = try await run(drive, stores: stores, strategies: ["fixed"], scenario: sc)
        let times = run.runs[0].events.filter { $0.kind == .refreshRequest }.map(\.time)
        #expect(times.count == 5, "at 0, 30, 60, 90 and 120 min")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 1_800 })
    }
}
