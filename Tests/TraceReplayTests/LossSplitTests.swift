import Foundation
import LocationStore
import OnCueClient
import Testing

@testable import TraceReplay

/// The app's own losses are named as the app's: the OS said the person was inside and the app did not confirm, or
/// confirmed only after the till.
@Suite struct LossSplitTests {
    func run(confirmSeconds: Double, trustOSAfter: Double = 0) async throws -> (TraceRun, StrategyRun) {
        var sc = try Hand.idealScenario()
        sc.groundTruth.storeRadiusMeters = 25
        sc.app.gpsConfirmSeconds = confirmSeconds
        sc.app.gpsApproachMetersPerSecond = 0
        sc.app.gpsTrustOsAfterSeconds = trustOSAfter
        let stores = [Hand.store("a", north: 0)]
        let run = try await Hand.replay(
            Hand.shortStop, stores: stores, strategies: ["fixed+gps"], scenario: sc, refresher: BruteForceRefresher(locations: stores, radius: 100))
        #expect(run.moments.count == 1)
        return (run, run.runs[0])
    }

    @Test func aCardAfterTheTillIsLateAndTheAppsLoss() async throws {
        // A 240 s window of standing fixes cannot end before 440 s, after the till: the card comes, but late.
        let (_, r) = try await run(confirmSeconds: 240)
        let outcome = try #require(r.outcomes.first)
        #expect(outcome.status == .late && r.metrics.late == 1 && r.metrics.served == 0 && r.metrics.caught == 1)
        #expect(r.metrics.slow == 0)
        #expect(r.metrics.missedOSDetection + r.metrics.missedRegionDetection + r.metrics.missedNotMonitored == 0)
    }

    @Test func theOSSaidInsideAndTheAppNeverConfirmed() async throws {
        // A 10-minute window never fills during a 300 s stop: the OS reported the person inside, the app's GPS
        // followed, and the rule holding the card was the window's.
        let (run, r) = try await run(confirmSeconds: 600)
        let outcome = try #require(r.outcomes.first)
        #expect(outcome.status == .missed && outcome.miss == .notConfirmed && outcome.hold == .fewFixes, "\(outcome.detail)")
        #expect(r.metrics.missedNotConfirmed == 1 && r.metrics.notConfirmedBy == ["few_fixes": 1])
        #expect(r.metrics.missedOSDetection + r.metrics.missedRegionDetection == 0, "not the OS's loss")
        #expect(run.oracleOS.metrics.served == 1, "the OS did report it")
    }

    @Test func trustingTheOSPostsTheCardTheWindowCouldNot() async throws {
        // The same 10-minute window, but the app trusts the OS 60 s after its report: the card comes by the till.
        let (_, r) = try await run(confirmSeconds: 600, trustOSAfter: 60)
        let n = try #require(r.notifications.first)
        #expect(r.notifications.count == 1 && n.trigger == .client(.trustedOS) && r.metrics.served == 1)
    }
}
