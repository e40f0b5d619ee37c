import Foundation
import LocationStore
import OnCueClient
import Testing

@testable import TraceReplay

/// `app.visit_confirms_stay`: the OS's visit (iOS `CLVisit`, modelled as `os.visit_min_minutes` within
/// `os.visit_radius_meters`) at a card store posts its card where the app's own GPS never settles; it is as early or
/// as late as the OS's report, and a walk-by gives none.
@Suite struct VisitConfirmationTests {
    /// `Hand.shortStop`'s walk without the stop.
    static let walkBy: Trace = Hand.trace(stride(from: 0.0, through: 600, by: 1).map { ($0, -300 + 1.5 * $0) })

    /// A `+gps` app whose 10-minute window cannot fill in the stop, on an OS that reports visits after `visitMinutes`.
    func run(_ trace: Trace, visitMinutes: Double, confirmsStay: Bool) async throws -> StrategyRun {
        var sc = try Hand.idealScenario()
        sc.groundTruth.storeRadiusMeters = 25
        sc.os.wakeOnEveryFix = false
        sc.os.visitMinMinutes = visitMinutes
        sc.os.visitRadiusMeters = 100
        sc.app.gpsConfirmSeconds = 600
        sc.app.gpsApproachMetersPerSecond = 0
        sc.app.visitConfirmsStay = confirmsStay
        let stores = [Hand.store("a", north: 0)]
        return try await Hand.replay(
            trace, stores: stores, strategies: ["fixed+gps"], scenario: sc, refresher: BruteForceRefresher(locations: stores, radius: 100)
        ).runs[0]
    }

    @Test func aVisitAtTheStorePostsTheCardTheWindowCouldNot() async throws {
        let r = try await run(Hand.shortStop, visitMinutes: 2, confirmsStay: true)
        let n = try #require(r.notifications.first)
        #expect(r.notifications.count == 1 && n.trigger == .client(.visit) && r.metrics.served == 1, "\(r.notifications)")
        // Without the setting the same visit wakes the app and posts nothing.
        let off = try await run(Hand.shortStop, visitMinutes: 2, confirmsStay: false)
        #expect(off.notifications.isEmpty && off.metrics.served == 0)
    }

    @Test func aLateVisitIsALateCard() async throws {
        // Five minutes within 100 m cannot end before the stop's till.
        let r = try await run(Hand.shortStop, visitMinutes: 5, confirmsStay: true)
        #expect(r.notifications.first?.trigger == .client(.visit) && r.metrics.late == 1 && r.metrics.served == 0, "\(r.notifications)")
    }

    @Test func aWalkByIsNoVisit() async throws {
        let r = try await run(Self.walkBy, visitMinutes: 2, confirmsStay: true)
        #expect(r.notifications.isEmpty, "\(r.notifications)")
    }
}
