import Foundation
import LocationStore
import OnCueClient
import Testing

@testable import TraceReplay

/// Two tiers through the replay: each card's life on screen is recorded (posted at its tier, upgraded, removed) and
/// scored as a person would see it — on screen at the till, buzzes and quiet cards at no moment.
@Suite struct TwoTierReplayTests {
    static let walkBy: Trace = Hand.trace(stride(from: 0.0, through: 600, by: 1).map { ($0, -300 + 1.5 * $0) })

    func run(_ trace: Trace, tiers: AppSettings.CardTiers) async throws -> StrategyRun {
        var sc = try Hand.idealScenario()
        sc.groundTruth.storeRadiusMeters = 25
        sc.app.cardTiers = tiers
        sc.app.gpsConfirmSeconds = 30
        let stores = [Hand.store("a", north: 0)]
        return try await Hand.replay(
            trace, stores: stores, strategies: ["fixed+gps"], scenario: sc, refresher: BruteForceRefresher(locations: stores, radius: 100)
        ).runs[0]
    }

    @Test func aStopShowsAQuietCardThatBecomesAnAlertAndIsOnScreenAtTheTill() async throws {
        let r = try await run(Hand.shortStop, tiers: .two)
        let life = try #require(r.cardLives.first)
        #expect(r.cardLives.count == 1 && life.tier == .quiet && life.upgraded != nil, "\(r.cardLives)")
        #expect(life.end == .removed, "the card was not taken away when the person left: \(life)")
        let t = r.metrics.tiers
        #expect(t.moments == 1 && t.onScreen == 1 && t.alerts == 1 && t.alertsAtMoment == 1 && t.strayAlerts == 0 && t.strayQuiet == 0)
        // Today's figures count the alert.
        #expect(r.notifications.count == 1 && r.metrics.served == 1)
    }

    @Test func aWalkByShowsAQuietCardAndNoBuzz() async throws {
        let r = try await run(Self.walkBy, tiers: .two)
        #expect(r.cardLives.count == 1 && r.cardLives[0].tier == .quiet && r.cardLives[0].upgraded == nil && r.cardLives[0].end == .removed)
        let t = r.metrics.tiers
        #expect(t.moments == 0 && t.alerts == 0 && t.strayQuiet == 1 && t.quietStrayMedianSeconds.map { $0 > 0 && $0 < 600 } == true, "\(t)")
        #expect(r.notifications.isEmpty)
    }

    @Test func oneTierIsAsBefore() async throws {
        let r = try await run(Hand.shortStop, tiers: .one)
        #expect(r.cardLives.count == 1 && r.cardLives[0].tier == .alert && r.cardLives[0].end == .traceEnded)
        #expect(r.metrics.tiers.onScreen == r.metrics.served && r.metrics.tiers.strayQuiet == 0)
    }
}
