import Foundation
import Geo
import LocationStore
import OnCueClient
import OnCueContract
import RegionRefresh

/// Everything one strategy run produced: the event log, monitored intervals, notifications and counters.
final class Recorder {
    let keepEvents: Bool
    private(set) var events: [ReplayEvent] = []
    private(set) var intervals: [MonitoredInterval] = []
    /// The alerts: every card of a single-tier client, and with two tiers the cards posted as alerts or upgraded to
    /// one (the figures of studies I–III read these).
    private(set) var notifications: [CardNotification] = []
    /// Every card's time on screen (`CardLife`), quiet ones included; open ones are closed by `finish(at:)`.
    private(set) var cardLives: [CardLife] = []
    private var openLives: [String: Int] = [:]
    /// Quiet cards that waited and were withdrawn (the quiet tier's filter held them until the person left).
    private(set) var quietWithdrawn: [CardNotification] = []
    /// Notifications the cool-down held back, and those withdrawn because the region's exit came before the
    /// confirmation delay was over (kept for the loss split, not shown to the person).
    private(set) var suppressed: [CardNotification] = []
    private(set) var withdrawn: [CardNotification] = []
    /// When the OS reported the person inside a store region (entry, dwell, a state answer), with the region's
    /// locations: the loss split tells the app's failures to confirm from the OS's failures to report.
    private(set) var insideReports: [(time: Double, locationIds: [String], inside: Bool)] = []
    /// What held each followed store's card back, each time that changed (`ClientNote.stayPending`).
    private(set) var holds: [(time: Double, locationIds: [String], hold: ClientNote.StayHold)] = []
    var refreshCalls = 0
    var refreshFailures = 0
    var monitorFailures = 0
    /// Times the OS ran the app (a wake within the background time of the previous one is the same wake).
    private(set) var wakes = 0
    private var awakeUntil = -Double.infinity
    /// Seconds the app had GPS on for a fix of its own.
    var gpsSeconds = 0.0
    private(set) var regionStarts = 0
    private(set) var regionStops = 0
    private var openSince: [String: Double] = [:]
    /// The recorded position at the current virtual time (for event distances).
    var truePosition = UnitVector(latitude: 0, longitude: 0)

    init(keepEvents: Bool) { self.keepEvents = keepEvents }

    func event(_ e: ReplayEvent) { if keepEvents { events.append(e) } }

    func woke(at time: Double, backgroundSeconds: Double) {
        guard time >= awakeUntil else { return }
        wakes += 1
        awakeUntil = time + max(backgroundSeconds, 1)
    }

    func reported(_ r: Region, inside: Bool, at time: Double) {
        insideReports.append((time, ClientStateMachine.locationIds(of: r), inside))
    }

    func held(_ r: Region, _ hold: ClientNote.StayHold, at time: Double) {
        holds.append((time, ClientStateMachine.locationIds(of: r), hold))
    }

    func trueDistance(to r: Region) -> Double {
        (truePosition.meters(to: UnitVector(latitude: r.lat, longitude: r.lon)) * 10).rounded() / 10
    }

    /// An alert with no identifier of its own (the `oracle` policy's): a card of its own on screen.
    func notify(_ n: CardNotification) {
        post(n, tier: .alert, identifier: "oracle.\(cardLives.count)")
    }

    /// A card posted under `identifier`: a quiet card of the same locations upgraded in place by an alert, or a new
    /// card on screen that replaces whatever was under that identifier.
    func post(_ n: CardNotification, tier: CardTier, identifier: String) {
        if let i = openLives[identifier] {
            let life = cardLives[i]
            if life.tier == .quiet, life.upgraded == nil, tier == .alert, life.locationIds == n.locationIds {
                cardLives[i].upgraded = n.time
                notifications.append(n)
                event(
                    ReplayEvent(
                        time: n.time, kind: .notification, location: n.locationIds.first ?? "", network: n.networkId, card: n.card,
                        distance: n.distance, detail: "\(n.card) card upgraded to an alert (\(n.trigger.rawValue))"))
                return
            }
            close(i, at: n.time, .replaced)
        }
        openLives[identifier] = cardLives.count
        cardLives.append(
            CardLife(
                networkId: n.networkId, locationIds: n.locationIds, card: n.card, trigger: n.trigger, tier: tier, posted: n.time,
                upgraded: nil, ended: .infinity, end: .traceEnded, identifier: identifier))
        if tier == .alert { notifications.append(n) }
        event(
            ReplayEvent(
                time: n.time, kind: .notification, location: n.locationIds.first ?? "", network: n.networkId, card: n.card,
                distance: n.distance, detail: "\(n.card) card \(tier == .quiet ? "shown quietly" : "available") (\(n.trigger.rawValue))"))
    }

    /// The card under `identifier` was taken off the screen.
    func removeCard(_ identifier: String, at time: Double) {
        guard let i = openLives[identifier] else { return }
        close(i, at: time, .removed)
        event(
            ReplayEvent(
                time: time, kind: .cardRemoved, location: cardLives[i].locationIds.first ?? "", network: cardLives[i].networkId,
                card: cardLives[i].card, detail: "\(cardLives[i].tier.rawValue) card removed"))
    }

    private func close(_ i: Int, at time: Double, _ end: CardLife.End) {
        cardLives[i].ended = time
        cardLives[i].end = end
        openLives[cardLives[i].identifier] = nil
    }

    /// The recording ended: cards still on screen stay so until then.
    func finish(at time: Double) {
        for i in openLives.values.sorted() {
            cardLives[i].ended = max(time, cardLives[i].posted)
            cardLives[i].end = .traceEnded
        }
        openLives = [:]
    }

    func withdrawQuiet(_ n: CardNotification) { quietWithdrawn.append(n) }

    func suppress(_ n: CardNotification) {
        suppressed.append(n)
        event(
            ReplayEvent(
                time: n.time, kind: .suppressed, location: n.locationIds.first ?? "", network: n.networkId, card: n.card,
                distance: n.distance, detail: n.trigger.rawValue))
    }

    func withdraw(_ n: CardNotification, at time: Double) {
        withdrawn.append(n)
        event(
            ReplayEvent(
                time: time, kind: .withdrawn, location: n.locationIds.first ?? "", network: n.networkId, card: n.card,
                distance: n.distance, detail: "exit before the confirmation delay"))
    }

    func started(_ r: Region, key: String, role: MonitoredInterval.Role, at time: Double) {
        if role != .refresh { regionStarts += 1 }
        openSince[key] = time
        event(
            ReplayEvent(
                time: time, kind: .monitorStart, location: r.id, network: r.networkId, distance: trueDistance(to: r),
                detail: "\(role.rawValue) \(Int(r.radiusMeters)) m"))
    }

    func stopped(_ r: Region, key: String, role: MonitoredInterval.Role, at time: Double, final: Bool = false) {
        if !final {
            if role != .refresh { regionStops += 1 }
            event(
                ReplayEvent(
                    time: time, kind: .monitorStop, location: r.id, network: r.networkId, distance: trueDistance(to: r),
                    detail: role.rawValue))
        }
        // A region no longer monitored says nothing more of the person: an inside report ends with it.
        if role != .refresh { reported(r, inside: false, at: time) }
        let start = openSince.removeValue(forKey: key) ?? time
        intervals.append(
            MonitoredInterval(
                regionId: r.id, locationIds: ClientStateMachine.locationIds(of: r), networkId: r.networkId, lat: r.lat, lon: r.lon,
                radiusMeters: r.radiusMeters, role: role, start: start, end: time))
    }
}

/// A card notification the app posted (or the cool-down held back), credited to its network and to every location
/// of the region that fired (lead and merged ids).
package struct CardNotification: Sendable, Hashable, Codable {
    /// What made the app post it: the client's own trigger, or the moment of arrival (the `oracle` policy, which
    /// reads the true path). Written as the client's words, so reports read the same either way.
    package enum Trigger: Sendable, Hashable, Codable, RawRepresentable {
        case client(CardTrigger)
        case arrival

        static let arrivalText = "arrival (oracle)"

        package init?(rawValue: String) {
            if rawValue == Self.arrivalText {
                self = .arrival
            } else if let trigger = CardTrigger(rawValue: rawValue) {
                self = .client(trigger)
            } else {
                return nil
            }
        }

        package var rawValue: String {
            switch self {
            case .client(let trigger): trigger.rawValue
            case .arrival: Self.arrivalText
            }
        }

        // Written by hand: for an enum with associated values the compiler would write a keyed form, not the string.
        package init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let trigger = Self(rawValue: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown card trigger '\(text)'"))
            }
            self = trigger
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }

    package var time: Double
    package var networkId: String
    package var locationIds: [String]
    package var card: String
    package var trigger: Trigger
    /// Recorded distance to the region's centre at the time (metres, for the event log).
    package var distance: Double
}
