import Foundation
import Geo
import OnCueClient
import OnCueContract
import Testing

extension ClientAction {
    var isStart: Bool {
        if case .startPreciseLocation = self { return true }
        return false
    }
}

extension Array where Element == ClientAction {
    var removed: [CardNotice] { compactMap { if case .removeCard(let n) = $0 { n } else { nil } } }
    var alerts: [CardNotice] { posted.filter { $0.tier == .alert } }
    var quiet: [CardNotice] { posted.filter { $0.tier == .quiet } }
}

/// Two tiers of card on hand-made traces (`app.card_tiers: two`): a walk-by gets a quiet card that is taken away and
/// no buzz; a confirmed stay upgrades the quiet card to an alert, once, in place; a stay that ends before it is
/// confirmed never buzzes; and single-tier behaviour is what it was.
@Suite struct CardTierTests {
    typealias W = MachineWorld

    static let store = W.stores(1)[0]
    static let positions = ["s0": UnitVector(latitude: store.lat, longitude: store.lon)]

    /// A `+gps` machine with two tiers, launched at the origin with one store region registered.
    static func machine(
        _ spec: String = "guaranteed+gps", configure: (inout AppSettings) -> Void = { _ in }
    ) throws -> (ClientStateMachine, String, [ClientAction]) {
        let settings = try W.settings(spec) {
            $0.cardTiers = .two
            $0.gpsConfirmSeconds = 30
            configure(&$0)
        }
        var m = ClientStateMachine(settings: settings, platform: .iOS, wallet: W.wallet, storePositions: positions)
        var all = m.handle(.woke(.launch, fix: W.fix(0, north: -500)), at: 0)
        let call = try #require(all.refreshes.first)
        all += m.handle(.refreshSucceeded(W.answer(call.request, stores: [store])), at: 1)
        let region = try #require(all.started.first { $0.role == .store })
        return (m, region.identifier, all)
    }

    /// A location update `north` metres north of the origin (the store stands at 0).
    static func update(_ t: Double, north: Double) -> ClientEvent {
        .location(LocationUpdate(coarse: W.fix(t, north: north).unit, precise: PreciseFix(position: W.fix(t, north: north).unit, accuracy: 8)))
    }

    @Test("a walk-by gets a quiet card, taken away at the exit, and no buzz")
    func walkBy() throws {
        var (m, region, _) = try Self.machine()
        var actions = m.handle(.regionEntered(region), at: 100)
        #expect(actions.quiet.count == 1 && actions.alerts.isEmpty)
        let quiet = try #require(actions.quiet.first)
        #expect(quiet.identifier == CardNotice.onScreenIdentifier && quiet.card == "Acme")
        // Walking through at 1.4 m/s: the fixes move, so no stay is confirmed.
        for t in stride(from: 101.0, through: 160, by: 2) { actions += m.handle(Self.update(t, north: -40 + (t - 100) * 1.4), at: t) }
        let exit = m.handle(.regionExited(region, lastKnown: W.fix(170, north: 100)), at: 170)
        #expect(exit.removed.map(\.identifier) == [CardNotice.onScreenIdentifier])
        #expect((actions + exit).alerts.isEmpty, "a walk-by buzzed")
    }

    @Test("a confirmed stay upgrades the quiet card to an alert once, in place")
    func confirmedStay() throws {
        var (m, region, _) = try Self.machine()
        var actions = m.handle(.regionEntered(region), at: 100)
        for t in stride(from: 101.0, through: 400, by: 2) { actions += m.handle(Self.update(t, north: 3), at: t) }
        #expect(actions.quiet.count == 1)
        #expect(actions.alerts.count == 1, "\(actions.alerts.count) alerts")
        let alert = try #require(actions.alerts.first)
        // The same notification: upgraded, not stacked.
        #expect(alert.identifier == actions.quiet[0].identifier && alert.region.id == "s0")
        #expect(actions.removed.isEmpty)
        let exit = m.handle(.regionExited(region, lastKnown: W.fix(500, north: 200)), at: 500)
        #expect(exit.removed.count == 1 && exit.removed[0].tier == .alert)
    }

    @Test("with alert_min_stay_seconds, a confirmed stay buzzes once it has lasted and a fix still finds the person there")
    func alertWaitsForTheStay() throws {
        var (m, region, _) = try Self.machine { $0.alertMinStaySeconds = 300 }
        var actions = m.handle(.regionEntered(region), at: 100)
        for t in stride(from: 101.0, through: 200, by: 2) { actions += m.handle(Self.update(t, north: 3), at: t) }
        // Confirmed by the GPS window, but not 300 s since the OS's report: no alert yet, and GPS rests meanwhile.
        #expect(actions.alerts.isEmpty && actions.last { $0 == .stopPreciseLocation || $0.isStart } == .stopPreciseLocation)
        var later: [ClientAction] = []
        for t in stride(from: 202.0, through: 420, by: 2) { later += m.handle(Self.update(t, north: 3), at: t) }
        #expect(later.alerts.count == 1)
        #expect(later.contains { if case .startPreciseLocation(let from) = $0 { from >= 380 } else { false } }, "GPS came back for the check")

        // The person leaves after the confirmation; the OS's exit comes late: a fix at 400 finds them gone, no buzz.
        var (n, region2, _) = try Self.machine { $0.alertMinStaySeconds = 300 }
        var left = n.handle(.regionEntered(region2), at: 100)
        for t in stride(from: 101.0, through: 200, by: 2) { left += n.handle(Self.update(t, north: 3), at: t) }
        for t in stride(from: 202.0, through: 420, by: 2) { left += n.handle(Self.update(t, north: 3 + (t - 200) * 1.4), at: t) }
        left += n.handle(.regionExited(region2, lastKnown: W.fix(430, north: 320)), at: 430)
        #expect(left.alerts.isEmpty, "a stay that ended before it lasted buzzed")
        #expect(left.removed.map(\.tier) == [.quiet])

        // Without +gps the alert waits for its time as a pending notification, withdrawn when the exit comes first.
        var (o, region3, _) = try Self.machine("guaranteed") {
            $0.alertMinStaySeconds = 300
            $0.confirmSeconds = 60
        }
        let entered = o.handle(.regionEntered(region3), at: 100)
        let confirm = try #require(entered.wakes.first)
        let confirmed = o.handle(.wakeDue(confirm.id), at: confirm.at)
        let pending = try #require(confirmed.wakes.first)
        #expect(confirmed.alerts.isEmpty && pending.at == 400)
        let exit = o.handle(.regionExited(region3, lastKnown: W.fix(250, north: 200)), at: 250)
        #expect(exit.withdrawn.map(\.tier) == [.alert] && exit.removed.map(\.tier) == [.quiet] && exit.contains(.cancelWake(id: pending.id)))
        #expect(o.handle(.wakeDue(pending.id), at: 400).posted.isEmpty)
    }

    @Test("a stay that ends before its confirmation never buzzes")
    func unconfirmedStayNeverBuzzes() throws {
        var (m, region, _) = try Self.machine { $0.gpsConfirmSeconds = 120 }
        var actions = m.handle(.regionEntered(region), at: 100)
        for t in stride(from: 101.0, through: 160, by: 2) { actions += m.handle(Self.update(t, north: 3), at: t) }
        actions += m.handle(.regionExited(region, lastKnown: W.fix(170, north: 200)), at: 170)
        #expect(actions.quiet.count == 1 && actions.alerts.isEmpty && actions.removed.count == 1)
    }

    @Test("quiet filters: a delay withdrawn by the exit, and with +motion a quiet card only once the person stands")
    func quietFilters() throws {
        var (m, region, _) = try Self.machine { $0.quietDelaySeconds = 60 }
        let entered = m.handle(.regionEntered(region), at: 100)
        #expect(entered.quiet.isEmpty)
        let wake = try #require(entered.wakes.first)
        let exit = m.handle(.regionExited(region, lastKnown: W.fix(130, north: 200)), at: 130)
        #expect(exit.withdrawn.map(\.tier) == [.quiet] && exit.removed.isEmpty)
        #expect(m.handle(.wakeDue(wake.id), at: 160).posted.isEmpty)

        // quiet_requires_fix: a walk-by 45 m beside the store (its footprint is 25 m) gets no quiet card; a fix at the
        // door gets one at once.
        var (f, regionF, _) = try Self.machine { $0.quietRequiresFix = true }
        var beside = f.handle(.regionEntered(regionF), at: 100)
        for t in stride(from: 101.0, through: 111, by: 2) { beside += f.handle(Self.update(t, north: -45), at: t) }
        #expect(beside.quiet.isEmpty)
        let door = f.handle(Self.update(113, north: 5), at: 113)
        #expect(door.quiet.count == 1)

        var (n, region2, _) = try Self.machine("guaranteed+gps+motion") { $0.quietRequiresStill = true }
        _ = n.handle(.motion(walking: true), at: 90)
        #expect(n.handle(.regionEntered(region2), at: 100).quiet.isEmpty)
        let still = n.handle(.motion(walking: false), at: 130)
        #expect(still.quiet.count == 1)
    }

    @Test("a quiet card of the nearer store stays; a farther store's entry does not replace it; quiet_max_seconds takes it away")
    func oneCardOnScreen() throws {
        let stores = [
            Self.store,
            Region(
                id: "far", networkId: "bolt", lat: W.origin.lat + 400 / 111_195, lon: W.origin.lon, radiusMeters: 60, priority: 1, name: "far",
                address: nil),
        ]
        let settings = try W.settings("guaranteed") {
            $0.cardTiers = .two
            $0.quietMaxSeconds = 180
        }
        var m = ClientStateMachine(settings: settings, platform: .iOS, wallet: W.wallet)
        let call = try #require(m.handle(.woke(.launch, fix: W.fix(0, north: 10)), at: 0).refreshes.first)
        let started = m.handle(.refreshSucceeded(W.answer(call.request, stores: stores)), at: 1).started
        let near = try #require(started.first { $0.region.id == "s0" }).identifier
        let far = try #require(started.first { $0.region.id == "far" }).identifier
        #expect(m.handle(.regionEntered(near), at: 10).quiet.map(\.region.id) == ["s0"])
        #expect(m.handle(.regionEntered(far), at: 12).quiet.isEmpty)
        // Past quiet_max_seconds the quiet card goes at the next event.
        let later = m.handle(.woke(.significantChange, fix: W.fix(200, north: 10)), at: 200)
        #expect(later.removed.map(\.region.id) == ["s0"])
    }

    @Test("with remove_after_exit_seconds an exit the OS takes back keeps the card; a real one removes it after that long")
    func removalAfterExit() throws {
        var (m, region, _) = try Self.machine("guaranteed") {
            $0.removeAfterExitSeconds = 90
            $0.confirmSeconds = 600
        }
        #expect(m.handle(.regionEntered(region), at: 100).quiet.count == 1)
        let exit = m.handle(.regionExited(region, lastKnown: W.fix(200, north: 150)), at: 200)
        let removal = try #require(exit.wakes.last)
        #expect(exit.removed.isEmpty && removal.at == 290)
        // Back inside at 250: the card stays, and the same card is not posted again.
        let back = m.handle(.regionEntered(region), at: 250)
        #expect(back.contains(.cancelWake(id: removal.id)) && back.quiet.isEmpty)
        #expect(m.handle(.wakeDue(removal.id), at: 290).removed.isEmpty)
        // A real exit: removed 90 s later.
        let gone = try #require(m.handle(.regionExited(region, lastKnown: W.fix(400, north: 300)), at: 400).wakes.last)
        #expect(m.handle(.wakeDue(gone.id), at: gone.at).removed.count == 1)
    }

    @Test("single tier, as before: every card an alert under its region's identifier, never removed")
    func singleTier() throws {
        var (m, region, _) = try Self.machine { $0.cardTiers = .one }
        var actions = m.handle(.regionEntered(region), at: 100)
        for t in stride(from: 101.0, through: 400, by: 2) { actions += m.handle(Self.update(t, north: 3), at: t) }
        actions += m.handle(.regionExited(region, lastKnown: W.fix(500, north: 200)), at: 500)
        #expect(actions.posted.count == 1 && actions.posted[0].tier == .alert && actions.removed.isEmpty)
        #expect(actions.posted[0].identifier == "oncue.card.s0")
    }

    @Test("a state saved by the single-tier build (0.10) decodes and goes on as it would have", arguments: ["scheduled", "following"])
    func earlierStateDecodes(fixture: String) throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/state-0.10-\(fixture).json")
        var m = try ClientStateMachine.restore(try Data(contentsOf: url), storePositions: Self.positions)
        #expect(m.settings.app.cardTiers == .one)
        var actions: [ClientAction] = []
        if fixture == "scheduled" {
            // The card scheduled at 10 comes at 10 + the confirmation delay.
            actions = m.handle(.wakeDue(1), at: 130)
        } else {
            for t in stride(from: 31.0, through: 120, by: 1) { actions += m.handle(Self.update(t, north: 3), at: t) }
        }
        #expect(actions.posted.count == 1 && actions.posted[0].tier == .alert, "\(actions)")
        // And it saves again with the new fields.
        _ = try ClientStateMachine.restore(try m.snapshot(), storePositions: Self.positions)
    }
}
