import OnCueContract

/// What the client asks the app to do, in order; the app carries each out on its platform (`docs/client.md` wires
/// each to CoreLocation, Core Motion, UserNotifications and BackgroundTasks).
public enum ClientAction: Sendable, Hashable, Codable {
    /// Monitor this region under its identifier; callbacks name the identifier.
    case startMonitoring(RegionWatch)
    case stopMonitoring(RegionWatch)
    /// Ask the OS whether the phone is in this region now (`requestState(for:)`); answer with `.regionState`.
    case requestState(String)
    /// Ask the server (`RefreshClient`); answer with `.refreshSucceeded` or `.refreshFailed`.
    case refresh(RefreshCall)
    /// Turn precise location (GPS) on. `countedFrom` is when it must have come on to give a fix now: a fix's lead
    /// before now when coming back from a rest (a platform that can schedules it that early), else now.
    case startPreciseLocation(countedFrom: Double)
    case stopPreciseLocation
    /// Take one precise fix (`requestLocation()`), GPS on for at most `seconds`; answer with `.locationAnswered`.
    case requestLocation(forRegion: String, seconds: Double)
    /// Show the card notification now, at its tier (`CardNotice.tier`: quietly, or as an alert). A notification
    /// already delivered under the same `CardNotice.identifier` is replaced in place: with two tiers there is one card
    /// on screen at a time, so a quiet card upgraded to an alert is never a second card.
    case postCard(CardNotice)
    /// A card waiting to be shown (the confirmation delay, a quiet card's delay, an alert waiting for the stay to
    /// last) will not be: the person left first. It was never on screen (remove the pending request).
    case withdrawCard(CardNotice)
    /// The card on screen is taken away (`removeDeliveredNotifications`): the person left its store (the region's
    /// exit, or a wake whose fix is far from it), or a quiet card outlived `app.quiet_max_seconds`. Two tiers only.
    case removeCard(CardNotice)
    /// Wake the client at `at` with `.wakeDue(id)` (a local notification's trigger, a `BGTask`, a timer).
    case scheduleWake(id: Int, at: Double)
    /// The wake is no longer needed (the client ignores it if it comes anyway).
    case cancelWake(id: Int)
    /// Nothing to do: what the client decided and why, for the app's log (the replay's event log is made of these).
    case note(ClientNote)
}

/// A region as the client registers it, and what it is for.
public struct RegionWatch: Sendable, Hashable, Codable {
    /// The platform's region identifier (unique among the monitored regions).
    public var identifier: String
    public var region: Region
    public var role: RegionRole
    /// Notify on dwell rather than entry (`PlatformLimits.storeRegionsNotifyOnDwell`).
    public var notifyOnDwell: Bool
}

/// What a monitored region is for.
public enum RegionRole: String, Sendable, Hashable, Codable {
    /// A store region from the server: the person there means a card.
    case store
    /// The refresh ("bubble") region: leaving it asks the server again.
    case refresh
    /// `staged`: a wide region that wakes the app near a store...
    case wide
    /// ...and the store's own small region, watched until arrival.
    case small
}

/// A refresh the client asks for, and the fix it is made from.
public struct RefreshCall: Sendable, Hashable, Codable {
    public var request: RegionRefreshRequest
    /// The time of the fix the request was made from.
    public var fixTime: Double
    public var reason: Reason

    public enum Reason: String, Sendable, Hashable, Codable {
        /// A wake whose fix says the regions are due for a refresh.
        case wake
        /// The phone left the refresh region.
        case refreshRegionExit
    }
}

/// A card notification: which card, for which region, what made the client post it, and how it reaches the person.
public struct CardNotice: Sendable, Hashable, Codable {
    public var region: Region
    /// The store locations the region stands for: its id without a split-venue `#n` suffix, plus merged ids.
    public var locationIds: [String]
    /// The card's name in the wallet.
    public var card: String
    public var trigger: CardTrigger
    /// Quietly on the lock screen, or as an alert (`CardTier`); every card of a single-tier client is an alert.
    public var tier: CardTier = .alert
    /// The platform notification's identifier: with two tiers always `CardNotice.onScreenIdentifier` (one card on
    /// screen, replaced in place); a single-tier client's are its region's (`oncue.card.<region id>`).
    public var identifier: String = CardNotice.onScreenIdentifier
    /// iOS `relevanceScore` (0...1), for the notification summary: the nearest card store's card is 1.
    public var relevance: Double = 1

    /// The one card on screen of a two-tier client.
    public static let onScreenIdentifier = "oncue.card"

    init(region: Region, locationIds: [String], card: String, trigger: CardTrigger, tier: CardTier, identifier: String) {
        self.region = region
        self.locationIds = locationIds
        self.card = card
        self.trigger = trigger
        self.tier = tier
        self.identifier = identifier
    }

    enum CodingKeys: String, CodingKey {
        case region, locationIds, card, trigger, tier, identifier, relevance
    }

    /// A notice written before there were tiers is an alert with an identifier of its own.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        region = try c.decode(Region.self, forKey: .region)
        locationIds = try c.decode([String].self, forKey: .locationIds)
        card = try c.decode(String.self, forKey: .card)
        trigger = try c.decode(CardTrigger.self, forKey: .trigger)
        tier = try c.decodeIfPresent(CardTier.self, forKey: .tier) ?? .alert
        identifier = try c.decodeIfPresent(String.self, forKey: .identifier) ?? "\(Self.onScreenIdentifier).\(region.id)"
        relevance = try c.decodeIfPresent(Double.self, forKey: .relevance) ?? 1
    }
}

/// How a card reaches the person (docs/client.md wires each to its platform).
public enum CardTier: String, Sendable, Hashable, Codable, CaseIterable {
    /// No sound and no screen wake: on the lock screen when the person looks (iOS `.passive`, Android a channel of
    /// `IMPORTANCE_LOW`). Posted when the OS puts the person at a card store.
    case quiet
    /// A sound or a vibration (iOS `.timeSensitive`, Android `IMPORTANCE_HIGH`): only for a confirmed stay.
    case alert
}

/// What made the client post a card.
public enum CardTrigger: String, Sendable, Hashable, Codable {
    case entry, dwell
    case state = "state answer"
    case storeRegion = "store region entry"
    case appFix = "app fix at the store"
    case gps = "app GPS: stayed at the store"
    /// `app.gps_trust_os_after_seconds`: the app's GPS did not settle, and the OS still counted the person inside.
    case trustedOS = "OS entry trusted: the app's GPS did not settle"
    /// `app.visit_confirms_stay`: the OS reported a visit (iOS `CLVisit`) at the store.
    case visit = "OS visit at the store"
}

/// What the client decided, for logs.
public enum ClientNote: Sendable, Hashable, Codable {
    /// A refresh answer was applied: so many regions, and the distance after which the client asks again.
    case refreshApplied(regions: Int, refreshAfterMeters: Double)
    /// The platform's region limit kept this region from being monitored.
    case regionLimitReached(Region, limit: Int)
    /// A card waits for the confirmation delay.
    case cardScheduled(CardNotice, dueInSeconds: Double)
    /// The cool-down held a card back.
    case cardSuppressed(CardNotice)
    /// The phone left the refresh region (the fix it was last known at); a refresh follows unless a retry waits.
    case leftRefreshRegion(fixTime: Double)
    /// The client's GPS follows the person near this store...
    case followingStore(Region)
    /// ...and stopped following it.
    case stoppedFollowing(Region, FollowEnd)
    /// While a store is followed, why no card has come yet, each time that changes: the rule that is holding it.
    case stayPending(Region, StayHold)

    /// The rule that keeps a followed store's card from coming, at the moment.
    public enum StayHold: String, Sendable, Hashable, Codable, CaseIterable {
        /// `+motion`: the motion sensor says the person walks, so GPS rests.
        case walking = "the motion sensor said walking"
        /// The person is farther from every followed store than they could cover before a fix is worth taking.
        case far = "GPS rested: too far from the store to arrive before the next fix"
        /// The window showed a stay beside the store, not at it; GPS rests until the person moves.
        case stayingElsewhere = "GPS rested: a stay beside the store, not at it"
        /// GPS has not followed for a whole window yet, or its fixes do not span one.
        case fewFixes = "the fixes did not yet span the stay window"
        /// The window's two halves lie farther apart than a person staying moves.
        case moving = "the window's fixes moved"
        /// The window's mean lies outside the footprint (plus its accuracy, at most the nominal one).
        case outsideFootprint = "the stay's mean lay outside the store's footprint"
        /// The stay is clearly nearer another card store.
        case nearerAnotherStore = "the stay was nearer another card store"
        /// Two tiers: the stay is confirmed, and its alert waits until it has lasted `alert_min_stay_seconds`.
        case stayTooShort = "the stay had not lasted alert_min_stay_seconds yet"

        /// A short name for tables and JSON keys.
        public var key: String {
            switch self {
            case .walking: "walking"
            case .far: "far"
            case .stayingElsewhere: "staying_elsewhere"
            case .fewFixes: "few_fixes"
            case .moving: "moving"
            case .outsideFootprint: "outside_footprint"
            case .nearerAnotherStore: "nearer_another_store"
            case .stayTooShort: "stay_too_short"
            }
        }

        /// The key for a moment whose store the app never followed with GPS.
        public static let neverFollowedKey = "never_followed"
    }

    public enum FollowEnd: String, Sendable, Hashable, Codable {
        case leftRegion = "left the region"
        case regionReleased = "region no longer monitored"
        case gaveUp = "gave up"
        case cardShown = "card shown"
        case stopped = "stopped"
    }
}
