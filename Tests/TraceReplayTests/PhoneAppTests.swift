import Foundation
import LocationStore
import Testing
@testable import TraceReplay

/// The app model end to end on hand-built traces, against the brute-force refresher.
@Suite struct PhoneAppTests {
    func run(_ trace: Trace, stores: [Location], strategies: [String], scenario: Scenario? = nil,
             refresher: BruteForceRefresher? = nil) async throws -> TraceRun {
        let sc = try scenario ?? Hand.iosExact()
        let catalog = StoreCatalog(locations: stores, storeRadiusMeters: 100)
        let context = ReplayContext(scenario: sc, wallet: Hand.wallet, catalog: catalog, refresher: refresher ?? BruteForceRefresher(locations: stores))
        return await ReplayRunner.run(trace, strategies: try strategies.map(Strategy.parse), context: context)
    }

    /// Standing in a store from the first fix for 10 minutes.
    var standingInStore: Trace { Hand.trace((0...60).map { (Double($0) * 10, 0) }) }

    @Test func askingForStateCatchesTheStoreYouAreIn() async throws {
        let run = try await run(standingInStore, stores: [Hand.store("a", north: 20)], strategies: ["document", "fixed"])
        #expect(run.visits.count == 1)
        let document = run.runs[0].metrics, fixed = run.runs[1].metrics
        #expect(document.caught == 0 && document.missedByDetection == 1, "no entry for a region already inside, and no state request")
        #expect(fixed.caught == 1 && fixed.notifications == 1)
        // Requested at launch (t = 0), state answered at once: the notification is at arrival.
        #expect(fixed.delayP50 == 0)
        #expect(run.oracle.metrics.caught == 1)
    }

    @Test func cooldownSuppressesRepeats() async throws {
        // In, out (1 km), in again after 20 min, out, in again after 70 min: notified at 0 and 70 min, suppressed at 20.
        var pts: [(Double, Double)] = []
        func stay(_ from: Double, _ minutes: Int, _ north: Double) { for i in 0..<(minutes * 6) { pts.append((from + Double(i) * 10, north)) } }
        stay(0, 5, 0); stay(600, 5, 1_000); stay(1_200, 5, 0); stay(1_800, 50, 1_000); stay(4_800, 5, 0)
        var sc = try Hand.iosExact()
        sc.os = .ideal
        let run = try await run(Hand.trace(pts), stores: [Hand.store("a", north: 0)], strategies: ["fixed"], scenario: sc)
        let picked: [ReplayEvent] = run.runs[0].events.filter { $0.kind == .notification || $0.kind == .suppressed }
        let kinds: [ReplayEvent.Kind] = picked.map(\.kind)
        let times: [Double] = picked.map { $0.time - 1_000_000 }
        #expect(kinds == [.notification, .suppressed, .notification])
        #expect(times == [0, 1_200, 4_800])
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
        var sc = try Hand.iosExact()
        sc.os = .ideal
        let run = try await run(drive, stores: stores, strategies: ["fixed"], scenario: sc,
                                refresher: BruteForceRefresher(locations: stores, failCalls: [2]))
        let ev = run.runs[0].events
        let failed = try #require(ev.first { $0.kind == .refreshFailed })
        let nextRequest = try #require(ev.first { $0.kind == .refreshRequest && $0.time > failed.time })
        #expect(nextRequest.time - failed.time >= 30)
        #expect(!ev.contains { $0.kind == .monitorStop && $0.time == failed.time }, "a failure stops nothing")
        #expect(run.runs[0].metrics.refreshFailures == 1)
    }

    @Test func outageWindowFailsCalls() async throws {
        var sc = try Hand.iosExact()
        sc.os = .ideal
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
        let run = try await run(drive, stores: stores, strategies: ["bubble"], scenario: try { var s = try Hand.iosExact(); s.os = .ideal; return s }())
        let wakes = run.runs[0].events.filter { $0.kind == .wake && $0.detail == "refresh_region_exit" }
        #expect(!wakes.isEmpty)
        #expect(run.runs[0].intervals.contains { $0.isRefreshRegion })
    }
}
