import Foundation
import Geo
import OnCueClient
import OnCueContract
import Testing

/// The state machine on hand-made event sequences: each asserts what a phone must (and must not) do when the
/// platform's reports come in an awkward order.
@Suite struct ClientStateMachineTests {
    typealias W = MachineWorld

    /// A machine launched at the origin whose first refresh was answered with `stores`; the actions of that answer.
    func launched(
        _ spec: String = "guaranteed", platform: PlatformLimits = .iOS, stores: [Region] = W.stores(6),
        configure: (inout AppSettings) -> Void = { _ in }
    ) throws -> (ClientStateMachine, [ClientAction]) {
        var m = ClientStateMachine(settings: try W.settings(spec, configure: configure), platform: platform, wallet: W.wallet)
        let launch = m.handle(.woke(.launch, fix: W.fix(0, north: 0)), at: 0)
        let call = try #require(launch.refreshes.first)
        let answer = m.handle(.refreshSucceeded(W.answer(call.request, stores: stores)), at: 1)
        return (m, answer)
    }

    @Test func anEntryBeforeTheAnswerIsIgnoredAndTheAnswerAsksForTheState() throws {
        var m = ClientStateMachine(settings: try W.settings("guaranteed"), platform: .iOS, wallet: W.wallet)
        let call = try #require(m.handle(.woke(.launch, fix: W.fix(0, north: 0)), at: 0).refreshes.first)
        #expect(call.request.userNetworks == ["acme", "bolt"] && call.request.maxRegions == 20)
        // The OS cannot report a region the app never registered; a stray identifier changes nothing.
        #expect(m.handle(.regionEntered("store|s0|60.17|24.94|60.0"), at: 0.5).isEmpty)
        let answer = m.handle(.refreshSucceeded(W.answer(call.request, stores: W.stores(3))), at: 1)
        #expect(answer.started.map(\.region.id) == ["s0", "s1", "s2"])
        // iOS reports no entry for a region the phone is already in: the state of each new store region is asked.
        #expect(answer.stateRequests == answer.started.map(\.identifier))
        let inside = m.handle(.regionState(answer.started[0].identifier, inside: true), at: 3)
        #expect(inside.wakes.count == 1 && inside.wakes[0].at == 3 + AppSettings().confirmSeconds)
    }

    @Test func androidReportsEntriesItselfSoNoStateIsAsked() throws {
        let (_, answer) = try launched(platform: .android)
        #expect(!answer.started.isEmpty && answer.stateRequests.isEmpty)
    }

    @Test func anExitBeforeTheConfirmationDelayWithdrawsTheCard() throws {
        var (m, answer) = try launched()
        let acme = answer.started[0].identifier
        let scheduled = m.handle(.regionEntered(acme), at: 10)
        let wake = try #require(scheduled.wakes.first)
        let exit = m.handle(.regionExited(acme, lastKnown: W.fix(60, north: 200)), at: 60)
        #expect(exit.withdrawn.map(\.region.id) == ["s0"] && exit.contains(.cancelWake(id: wake.id)))
        // The wake may come anyway: the withdrawn card stays withdrawn.
        #expect(m.handle(.wakeDue(wake.id), at: wake.at).posted.isEmpty)
    }

    @Test func anAnswerAfterTheExitReplacesTheRegionsLeft() throws {
        var (m, answer) = try launched("bubble", stores: W.stores(30))
        let bubble = try #require(answer.started.first { $0.role == .refresh })
        let exit = m.handle(.regionExited(bubble.identifier, lastKnown: W.fix(100, north: 1_500)), at: 101)
        let call = try #require(exit.refreshes.first)
        #expect(call.reason == .refreshRegionExit && call.fixTime == 100)
        // While that call is out, more exits and wakes ask nothing more.
        #expect(m.handle(.regionExited(bubble.identifier, lastKnown: W.fix(110, north: 1_600)), at: 111).refreshes.isEmpty)
        #expect(m.handle(.woke(.significantChange, fix: W.fix(120, north: 2_000)), at: 120).refreshes.isEmpty)
        let applied = m.handle(.refreshSucceeded(W.answer(call.request, stores: W.stores(30))), at: 130)
        let kept = Set(answer.started.map(\.identifier)).subtracting(applied.stopped.map(\.identifier))
        #expect(Set(m.monitoredRegions.map(\.identifier)) == kept.union(applied.started.map(\.identifier)))
        #expect(applied.stopped.contains { $0.identifier == bubble.identifier })
    }

    @Test func aDuplicateEntryPostsOneCard() throws {
        var (m, answer) = try launched { $0.confirmSeconds = 0 }
        let acme = answer.started[0].identifier
        #expect(m.handle(.regionEntered(acme), at: 10).posted.count == 1)
        let again = m.handle(.regionEntered(acme), at: 11)
        #expect(again.posted.isEmpty && again.notes.contains { if case .cardSuppressed = $0 { true } else { false } })
    }

    @Test func aClockGoingBackwardsGivesNoSecondCardAndNoEarlyRefresh() throws {
        var (m, answer) = try launched {
            $0.confirmSeconds = 0
            $0.minRefreshIntervalSeconds = 900
        }
        #expect(m.handle(.regionEntered(answer.started[0].identifier), at: 1_000).posted.count == 1)
        // The phone's clock jumps back an hour: a card of the same network, and a wake far away.
        #expect(m.handle(.regionEntered(answer.started[3].identifier), at: -2_600).posted.isEmpty)
        #expect(m.handle(.woke(.significantChange, fix: W.fix(-2_000, north: 5_000)), at: -2_000).refreshes.isEmpty)
    }

    @Test func thePlatformsRegionLimitHolds() throws {
        var (m, answer) = try launched(stores: W.stores(30))
        #expect(answer.started.count == 20 && m.monitoredRegions.count == 20)
        // An answer with more regions than the platform takes (a server asked for @25 on iOS).
        var many = W.answer(
            RegionRefreshRequest(lat: W.origin.lat, lon: W.origin.lon, maxRegions: 30),
            stores: W.stores(30).map {
                var r = $0
                r.radiusMeters = 61
                return r
            })
        many.regions.reverse()
        let wide = try #require(m.handle(.woke(.significantChange, fix: W.fix(30_000, north: 600)), at: 30_000).refreshes.first)
        _ = wide
        let applied = m.handle(.refreshSucceeded(many), at: 30_001)
        #expect(m.monitoredRegions.count == 20)
        #expect(applied.notes.filter { if case .regionLimitReached(_, 20) = $0 { true } else { false } }.count == 10)
        // The platform refusing one anyway (monitoringDidFail): it is no longer counted as monitored.
        let refused = try #require(applied.started.last)
        _ = m.handle(.monitoringFailed(refused.identifier), at: 30_002)
        #expect(m.monitoredRegions.count == 19 && m.watch(refused.identifier) == nil)
    }

    @Test func permissionLostThenRegained() throws {
        var (m, answer) = try launched()
        let lost = m.handle(.permission(granted: false), at: 50)
        #expect(Set(lost.stopped.map(\.identifier)) == Set(answer.started.map(\.identifier)) && m.monitoredRegions.isEmpty)
        #expect(m.handle(.regionEntered(answer.started[0].identifier), at: 60).isEmpty)
        #expect(m.handle(.woke(.significantChange, fix: W.fix(70, north: 0)), at: 70).isEmpty)
        #expect(m.handle(.permission(granted: true), at: 80).isEmpty)
        // Back: the next wake asks the server afresh, wherever the phone is.
        #expect(m.handle(.woke(.visit, fix: W.fix(90, north: 0)), at: 90).refreshes.count == 1)
    }

    @Test func aServerDownForAnHourIsAskedWithDoublingBackoff() throws {
        var m = ClientStateMachine(settings: try W.settings("guaranteed"), platform: .iOS, wallet: W.wallet)
        var calls: [Double] = []
        var t = 0.0
        while t < 3_600 {
            // A wake every 10 s (a foreground app): every call fails.
            if m.handle(.woke(.foreground, fix: W.fix(t, north: 0)), at: t).refreshes.first != nil {
                calls.append(t)
                _ = m.handle(.refreshFailed(retryAfterSeconds: nil), at: t + 1)
            }
            t += 10
        }
        let gaps = zip(calls.dropFirst(), calls).map { $0 - $1 }
        // Retry no sooner than 30, 60, 120 ... s after each failure, doubling up to 1,800 s.
        var expected = 30.0
        for gap in gaps {
            #expect(gap >= expected + 1 && gap < expected + 1 + 10)
            expected = min(expected * 2, 1_800)
        }
        #expect(calls.count == 7)
        // A server that says when to come back is believed when it asks for longer than the backoff.
        var n = ClientStateMachine(settings: try W.settings("guaranteed"), platform: .iOS, wallet: W.wallet)
        _ = n.handle(.woke(.foreground, fix: W.fix(0, north: 0)), at: 0)
        _ = n.handle(.refreshFailed(retryAfterSeconds: 600), at: 1)
        #expect(n.handle(.woke(.foreground, fix: W.fix(590, north: 0)), at: 590).refreshes.isEmpty)
        #expect(n.handle(.woke(.foreground, fix: W.fix(601, north: 0)), at: 601).refreshes.count == 1)
    }

    @Test func aRelaunchInTheMiddleOfAStayResumesIt() throws {
        // A card waiting for its confirmation delay survives the app being ended and relaunched.
        var (m, answer) = try launched()
        let wake = try #require(m.handle(.regionEntered(answer.started[0].identifier), at: 10).wakes.first)
        var relaunched = try ClientStateMachine.restore(m.snapshot())
        #expect(relaunched.handle(.woke(.launch, fix: W.fix(20, north: 0)), at: 20).refreshes.isEmpty)
        #expect(relaunched.handle(.wakeDue(wake.id), at: wake.at).posted.map(\.card) == ["Acme"])

        // +gps: the follow and its stay window go on from the snapshot.
        let store = W.stores(1)[0]
        let positions = ["s0": UnitVector(latitude: store.lat, longitude: store.lon)]
        var g = ClientStateMachine(settings: try W.settings("guaranteed+gps"), platform: .iOS, wallet: W.wallet, storePositions: positions)
        let call = try #require(g.handle(.woke(.launch, fix: W.fix(0, north: 0)), at: 0).refreshes.first)
        let regions = g.handle(.refreshSucceeded(W.answer(call.request, stores: [store])), at: 1).started
        let follow = g.handle(.regionEntered(regions[0].identifier), at: 2)
        #expect(follow.contains(.startPreciseLocation(countedFrom: 2)) && g.wantsLocationUpdates)
        func update(_ t: Double) -> ClientEvent {
            .location(LocationUpdate(coarse: W.fix(t, north: 5).unit, precise: PreciseFix(position: W.fix(t, north: 3).unit, accuracy: 8)))
        }
        for t in stride(from: 3.0, through: 30, by: 1) { #expect(g.handle(update(t), at: t).posted.isEmpty) }
        var resumed = try ClientStateMachine.restore(g.snapshot(), storePositions: positions)
        var cardAt: Double?
        for t in stride(from: 31.0, through: 120, by: 1) where cardAt == nil {
            let a = resumed.handle(update(t), at: t)
            let b = g.handle(update(t), at: t)
            #expect(a == b)
            if !a.posted.isEmpty { cardAt = t }
        }
        // The stay is judged on a whole window of fixes: the card once they span gps_confirm_seconds from the first (3 s).
        #expect(cardAt == 3 + AppSettings().gpsConfirmSeconds)
    }

    @Test func stagedWatchesTheStoresOwnRegionAfterItsFix() throws {
        var (m, answer) = try launched("staged", platform: .iOS, stores: W.stores(3)) { $0.confirmSeconds = 0 }
        #expect(answer.started.allSatisfy { $0.role == .wide && $0.region.radiusMeters >= 200 })
        let wide = answer.started[0].identifier
        let ask = m.handle(.regionEntered(wide), at: 10)
        #expect(ask == [.requestLocation(forRegion: wide, seconds: AppSettings().gpsFixSeconds)])
        // The fix says 150 m from the store: the store's own region is watched.
        let far = m.handle(.locationAnswered(PreciseFix(position: W.fix(11, north: -150).unit, accuracy: 5)), at: 11)
        let small = try #require(far.started.first)
        #expect(small.role == .small && small.region.radiusMeters == 100 && far.posted.isEmpty)
        #expect(m.handle(.regionEntered(small.identifier), at: 40).posted.map(\.region.id) == ["s0"])
        // Leaving the wide region releases its small regions.
        #expect(m.handle(.regionExited(wide, lastKnown: nil), at: 90).stopped.allSatisfy { $0.role == .small })
    }

    @Test func settingsReadTheStudysRecommendation() throws {
        let json =
            #"{"ios": {"strategy": "guaranteed+clamp+gps+motion", "set": {"app.gps_confirm_seconds": 30, "network.backoff_max_seconds": 600}}}"#
        let s = try ClientSettings.recommended(json: Data(json.utf8), platform: "ios")
        #expect(s.strategy.gps && s.strategy.motion && s.strategy.clamp && s.app.gpsConfirmSeconds == 30 && s.backoffMaxSeconds == 600)
        #expect(s.app.cooldownSeconds == AppSettings().cooldownSeconds)
        for bad in [
            #"{"ios": {"strategy": "teleport"}}"#, #"{"ios": {"strategy": "fixed", "set": {"app.gps_confirm_secs": 1}}}"#,
            #"{"ios": {"strategy": "fixed", "set": {"os.max_regions": 1}}}"#, #"{"android": {"strategy": "fixed"}}"#,
        ] {
            #expect(throws: ClientSettingsError.self, "\(bad)") { try ClientSettings.recommended(json: Data(bad.utf8), platform: "ios") }
        }
    }

    @Test func theStudysRecommendationFileIsClientSettings() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../simulations/recommended.json")
        let data = try Data(contentsOf: file)
        for platform in ["ios", "android"] {
            let s = try ClientSettings.recommended(json: data, platform: platform)
            #expect(s.strategy.gps, "\(platform): the study recommends a +gps strategy")
        }
    }

    @Test func settingsAnAppCannotRunOnAreRefusedByKey() throws {
        let good = try W.settings("staged")
        #expect(try good.validated(for: .iOS) == good)
        var cases: [(ClientSettings, String)] = []
        var s = good
        s.app.gpsConfirmSeconds = -1
        cases.append((s, "app.gps_confirm_seconds"))
        s = good
        s.backoffMaxSeconds = .infinity
        cases.append((s, "network.backoff_max_seconds"))
        s = good
        s.app.stagedSlots = 20
        cases.append((s, "app.staged_slots"))
        s = good
        s.app.radiusKm = 0
        cases.append((s, "app.radius_km"))
        for (bad, key) in cases {
            #expect(performing: { _ = try bad.validated(for: .iOS) }, throws: { ($0 as? ClientSettingsError)?.description.hasPrefix(key) == true })
        }
    }
}
