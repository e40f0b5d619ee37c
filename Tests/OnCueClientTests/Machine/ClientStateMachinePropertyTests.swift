import Foundation
import Geo
import OnCueClient
import OnCueContract
import TestSupport
import Testing

/// Properties over random event sequences: a fake platform delivers, in random order and at random times, what a
/// real one could — wakes, answers and failures, entries, exits, states, refusals, fixes, motion, due wakes,
/// permission changes — and checks every action the machine returns against what must never happen.
@Suite(.cpuHeavy) struct ClientStateMachinePropertyTests {
    typealias W = MachineWorld
    static let sequences = TestScale.cases(4_000)
    static let specs = [
        "document", "fixed", "guaranteed", "bubble", "staged", "guaranteed+clamp", "guaranteed+clamp+gps", "guaranteed+clamp+gps+motion",
        "staged+gps", "bubble+gps@8", "staged@6",
    ]

    /// The platform's side of one run: what it monitors, what the client asked of it, and the rules it checks.
    struct FakePlatform {
        var rng: SeededRandom
        let settings: ClientSettings
        let limits: PlatformLimits
        let stores: [Region]
        var time = 0.0
        var monitored: Set<String> = []
        var outstanding: RefreshCall?
        var wakes: [Int: Double] = [:]
        var locationAsked = false
        var lastCard: [String: Double] = [:]
        var lastSuccessFix: Double?
        var failedAt: Double?
        var trace: [ClientEvent] = []

        /// Checks one event's actions and applies them to the platform's state; the first broken rule, if any.
        mutating func apply(_ actions: [ClientAction]) -> String? {
            for action in actions {
                switch action {
                case .startMonitoring(let w):
                    guard !monitored.contains(w.identifier) else { return "monitors \(w.identifier) twice" }
                    monitored.insert(w.identifier)
                    guard monitored.count <= limits.maxRegions else { return "\(monitored.count) regions monitored, limit \(limits.maxRegions)" }
                case .stopMonitoring(let w):
                    guard monitored.remove(w.identifier) != nil else { return "stops \(w.identifier), not monitored" }
                case .refresh(let call):
                    guard outstanding == nil else { return "a second refresh while one is out" }
                    // The product document's pseudo-code (`document`) has no backoff before its first answer.
                    if let failedAt, !settings.strategy.literal, call.fixTime < failedAt + settings.backoffInitialSeconds {
                        return "refresh at \(call.fixTime), \(call.fixTime - failedAt) s after a failure"
                    }
                    if call.reason == .wake, !settings.strategy.literal, let last = lastSuccessFix, failedAt == nil,
                        call.fixTime - last < settings.app.minRefreshIntervalSeconds
                    {
                        return "refresh \(call.fixTime - last) s after the last, minimum \(settings.app.minRefreshIntervalSeconds)"
                    }
                    outstanding = call
                case .postCard(let n):
                    guard W.wallet.card(for: n.region.networkId) != nil else { return "a card for \(n.region.networkId), not in the wallet" }
                    let key = settings.app.cooldownScope == .location ? n.locationIds[0] : n.region.networkId
                    if let last = lastCard[key], time - last < settings.app.cooldownSeconds {
                        return "two cards for \(key) \(time - last) s apart"
                    }
                    lastCard[key] = time
                case .scheduleWake(let id, let at): wakes[id] = at
                case .cancelWake(let id): wakes[id] = nil
                case .requestLocation: locationAsked = true
                default: break
                }
            }
            return nil
        }

        /// A random next event the platform could deliver now.
        mutating func next(_ machine: ClientStateMachine) -> ClientEvent {
            time += [0.5, 2, 10, 30, 120, 600][Int.random(in: 0..<6, using: &rng)]
            let here = W.fix(time, north: Double.random(in: -300..<3_000, using: &rng), accuracy: Double.random(in: 5..<80, using: &rng))
            let ids = monitored.sorted()
            let someId = ids.isEmpty || Int.random(in: 0..<10, using: &rng) == 0 ? "stray" : ids[Int.random(in: 0..<ids.count, using: &rng)]
            switch Int.random(in: 0..<16, using: &rng) {
            case 0, 1:
                let reasons: [ClientEvent.WakeReason] = [.launch, .significantChange, .visit, .periodic, .foreground]
                return .woke(reasons[Int.random(in: 0..<reasons.count, using: &rng)], fix: here)
            case 2, 3:
                guard let call = outstanding else { return .woke(.foreground, fix: here) }
                outstanding = nil
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    failedAt = time
                    return .refreshFailed(retryAfterSeconds: Bool.random(using: &rng) ? nil : Double.random(in: 0..<900, using: &rng))
                }
                failedAt = nil
                lastSuccessFix = call.fixTime
                return .refreshSucceeded(W.answer(call.request, stores: stores, refreshAfter: Double.random(in: 100..<800, using: &rng)))
            case 4, 5: return .regionEntered(someId)
            case 6: return .regionDwelled(someId)
            case 7, 8: return .regionExited(someId, lastKnown: Bool.random(using: &rng) ? here : nil)
            case 9: return .regionState(someId, inside: [true, false, nil][Int.random(in: 0..<3, using: &rng)])
            case 10:
                guard let (id, _) = wakes.min(by: { $0.value < $1.value }) else { return .wakeDue(Int.random(in: 0..<5, using: &rng)) }
                wakes[id] = nil
                return .wakeDue(id)
            case 11, 12:
                let precise =
                    Bool.random(using: &rng)
                    ? PreciseFix(
                        position: W.fix(time, north: Double.random(in: -50..<400, using: &rng)).unit, accuracy: Double.random(in: 0..<60, using: &rng)
                    ) : nil
                if locationAsked {
                    locationAsked = false
                    return .locationAnswered(precise)
                }
                return .location(LocationUpdate(coarse: here.unit, precise: precise, stream: Int32(Int.random(in: 0..<2, using: &rng))))
            case 13: return .motion(walking: Bool.random(using: &rng))
            case 14: return Int.random(in: 0..<8, using: &rng) == 0 ? .permission(granted: Bool.random(using: &rng)) : .monitoringFailed(someId)
            default: return .woke(.foreground, fix: here)
            }
        }

        /// The platform's own bookkeeping of events that change what it holds.
        mutating func delivered(_ event: ClientEvent) {
            switch event {
            case .monitoringFailed(let id): monitored.remove(id)
            case .permission(let granted):
                outstanding = nil
                if granted {
                    // Regained: the machine asks afresh, as after a launch.
                    failedAt = nil
                    lastSuccessFix = nil
                }
            default: break
            }
        }
    }

    static func machine(_ seed: UInt64) throws -> (ClientStateMachine, FakePlatform) {
        var rng = SeededRandom(seed: seed)
        let spec = specs[Int.random(in: 0..<specs.count, using: &rng)]
        let settings = try W.settings(spec) { app in
            app.confirmSeconds = [0, 60, 120][Int.random(in: 0..<3, using: &rng)]
            app.cooldownScope = Bool.random(using: &rng) ? .network : .location
            app.minRefreshIntervalSeconds = [0, 900][Int.random(in: 0..<2, using: &rng)]
            app.gpsConfirmSeconds = [15, 30, 60][Int.random(in: 0..<3, using: &rng)]
            app.gpsStayEvidence = Bool.random(using: &rng) ? .window : .still
        }
        let limits =
            Bool.random(using: &rng)
            ? PlatformLimits.iOS
            : PlatformLimits(
                maxRegions: 8, minReliableRadiusMeters: 100, reportsEntryWhenAddedInside: true, storeRegionsNotifyOnDwell: Bool.random(using: &rng))
        let stores = W.stores(Int.random(in: 1..<40, using: &rng))
        let positions = Dictionary(uniqueKeysWithValues: stores.map { ($0.id, UnitVector(latitude: $0.lat, longitude: $0.lon)) })
        let fixed = Int.random(in: 0..<12, using: &rng) == 0 ? Array(stores.prefix(limits.maxRegions + 2)) : nil
        let machine = ClientStateMachine(settings: settings, platform: limits, wallet: W.wallet, fixedRegions: fixed, storePositions: positions)
        return (machine, FakePlatform(rng: rng, settings: settings, limits: limits, stores: stores))
    }

    @Test func randomSequencesKeepThePromises() throws {
        var broken: [String] = []
        for seed in 0..<UInt64(Self.sequences) {
            var (m, platform) = try Self.machine(seed)
            for step in 0..<60 {
                let event = platform.next(m)
                platform.delivered(event)
                let actions = m.handle(event, at: platform.time)
                if let problem = platform.apply(actions) {
                    broken.append("seed \(seed) step \(step) \(m.settings.strategy.spec): \(problem) after \(event)")
                    break
                }
                #expect(Set(m.monitoredRegions.map(\.identifier)) == platform.monitored, "seed \(seed) step \(step)")
            }
            if broken.count > 3 { break }
        }
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    /// `restore(snapshot())` at a random point continues exactly as the machine that was never saved.
    @Test func aRestoredMachineContinuesAsTheUninterruptedOne() throws {
        for seed in 0..<UInt64(Self.sequences) {
            var (m, platform) = try Self.machine(seed &+ 1_000_000)
            let cut = Int(seed % 50)
            var restored: ClientStateMachine?
            for step in 0..<60 {
                if step == cut { restored = try ClientStateMachine.restore(m.snapshot(), storePositions: m.storePositions) }
                let event = platform.next(m)
                platform.delivered(event)
                let actions = m.handle(event, at: platform.time)
                _ = platform.apply(actions)
                if var r = restored {
                    let again = r.handle(event, at: platform.time)
                    restored = r
                    guard again == actions else {
                        Issue.record("seed \(seed): after a restore at step \(cut), step \(step) differs: \(again) vs \(actions)")
                        return
                    }
                }
            }
        }
    }
}
