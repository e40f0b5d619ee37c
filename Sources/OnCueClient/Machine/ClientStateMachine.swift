import Foundation
import Geo
import OnCueContract

/// The phone side of OnCue as a state machine: the refresh trigger, the region diff, retries with backoff, the
/// confirmation delay and the cool-down, the `+gps` stay check, `staged`'s small regions and the two tiers of card. Events in
/// (`ClientEvent`: what the platform reports, each with its time), actions out (`ClientAction`: what the app must do);
/// no I/O and no clock of its own, so the same code runs in an app and in the replay study, and its state is
/// `Codable`: an app the OS ended resumes from `snapshot()` with `restore(_:storePositions:)`.
public struct ClientStateMachine: Sendable, Codable {
    public let settings: ClientSettings
    public let platform: PlatformLimits
    public let wallet: Wallet
    /// Regions to monitor from launch instead of asking a server (an app that knows its stores; the study's
    /// references, which monitor every card location).
    public let fixedRegions: [Region]?
    /// Where card locations stand, by location id: what the stay check measures against (a merged region's other
    /// locations have no position in the response). Not part of the snapshot: the app gives it again on restore.
    public internal(set) var storePositions: [String: UnitVector] = [:]

    let walletNetworks: [String]
    var permitted = true
    var lastRefresh: RefreshMark?
    var threshold: Double
    /// The refresh the client is waiting for.
    var inFlight: RefreshMark?
    var retryAt: Double?
    var backoff: Double
    /// Last card per cool-down key (network or location, by the settings' scope).
    var lastNotified: [String: Double] = [:]
    var networkVisits: [String: Int] = [:]
    /// Regions monitored, by identifier.
    var monitored: [String: Watched] = [:]
    /// Cards waiting for the confirmation delay, by region identifier, until posted or withdrawn.
    var scheduled: [String: ScheduledCard] = [:]
    var nextWakeId = 0
    /// `+gps`: stores the client follows with its own GPS, by region identifier.
    var follows: [String: StoreFollow] = [:]
    /// Since when GPS has been on (nil: off or resting); while it rests, until when, and since when.
    var gpsOnSince: Double?
    var gpsAsleepUntil: Double?
    var gpsSleptAt = 0.0
    /// Where the low-power position was when GPS began resting beside a store (nil: resting by distance).
    var gpsRestAnchor: UnitVector?
    /// The location stream of the last precise fix.
    var gpsStream: Int32 = 0
    /// `+motion`: the motion sensor's latest word.
    var walking = false
    /// `staged`: wide regions waiting for the client's own fix.
    var awaitingFix: [String] = []
    /// Two tiers: the card on screen and what waits (nil until the first card: a state saved before tiers existed).
    var tiers: TierState?
    /// The actions of the event being handled.
    var emitted: [ClientAction] = []

    public init(
        settings: ClientSettings, platform: PlatformLimits, wallet: Wallet, fixedRegions: [Region]? = nil,
        storePositions: [String: UnitVector] = [:]
    ) {
        self.settings = settings
        self.platform = platform
        self.wallet = wallet
        self.fixedRegions = fixedRegions
        self.storePositions = storePositions
        walletNetworks = wallet.networkIds
        threshold = settings.app.fixedMinimumMeters
        backoff = settings.backoffInitialSeconds
    }

    var strategy: ClientStrategy { settings.strategy }
    var app: AppSettings { settings.app }

    /// The client wants location updates (`ClientEvent.location`): it follows a store with its GPS.
    public var wantsLocationUpdates: Bool { !follows.isEmpty }

    /// The region monitored under `identifier`, as it was registered.
    public func watch(_ identifier: String) -> RegionWatch? {
        monitored[identifier].map { RegionWatch(identifier: identifier, region: $0.region, role: $0.role, notifyOnDwell: notifiesOnDwell($0.role)) }
    }

    /// Every monitored region, by identifier.
    public var monitoredRegions: [RegionWatch] { monitored.keys.sorted().compactMap(watch) }

    /// Handles one event at `time` and returns what the app must do, in order.
    public mutating func handle(_ event: ClientEvent, at time: Double) -> [ClientAction] {
        if !permitted, !event.isPermission { return [] }
        expireQuietCard(at: time)
        switch event {
        case .woke(let reason, let fix): woke(reason, fix: fix)
        case .refreshSucceeded(let response): refreshSucceeded(response, at: time)
        case .refreshFailed(let retryAfter): refreshFailed(retryAfter: retryAfter, at: time)
        case .regionEntered(let id): entered(id, trigger: .entry, at: time)
        case .regionDwelled(let id): entered(id, trigger: .dwell, at: time)
        case .regionState(let id, let inside): state(id, inside: inside, at: time)
        case .regionExited(let id, let lastKnown): exited(id, lastKnown: lastKnown, at: time)
        case .monitoringFailed(let id): monitored[id] = nil
        case .location(let update): located(update, at: time)
        case .locationAnswered(let fix): answered(fix, at: time)
        case .motion(let isWalking):
            walking = isWalking
            stoodStill(at: time)
        case .wakeDue(let id): wakeDue(id, at: time)
        case .permission(let granted): permission(granted, at: time)
        case .stopped: stop(at: time)
        }
        defer { emitted = [] }
        return emitted
    }

    mutating func emit(_ action: ClientAction) { emitted.append(action) }

    /// The state to save when the OS may end the app, as JSON (without `storePositions`).
    public func snapshot() throws -> Data { try JSONEncoder().encode(self) }

    /// A saved state, resumed with the store positions the app knows: it continues exactly as the machine it was
    /// saved from would have.
    public static func restore(_ snapshot: Data, storePositions: [String: UnitVector] = [:]) throws -> ClientStateMachine {
        var machine = try JSONDecoder().decode(ClientStateMachine.self, from: snapshot)
        machine.storePositions = storePositions
        return machine
    }

    /// Everything but `storePositions` (given again on restore) and the actions of an event being handled.
    enum CodingKeys: String, CodingKey {
        case settings, platform, wallet, fixedRegions, walletNetworks, permitted, lastRefresh, threshold, inFlight, retryAt
        case backoff, lastNotified, networkVisits, monitored, scheduled, nextWakeId, follows, gpsOnSince, gpsAsleepUntil
        case gpsSleptAt, gpsRestAnchor, gpsStream, walking, awaitingFix, tiers
    }
}

extension ClientEvent {
    var isPermission: Bool {
        if case .permission = self { return true }
        return false
    }
}
