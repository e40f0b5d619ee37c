/// The app's own settings: when it asks the server again, how it turns the OS's region reports into a card, and how
/// its GPS confirms a stay. They are the study's `app.*` keys (`simulations/scenarios/*.json`, `recommended.json`),
/// with the same names in snake_case; the defaults are the product document's, and `docs/client.md` gives the values
/// the study recommends.
public struct AppSettings: Sendable, Hashable {
    /// The search radius sent with each refresh (`radius_km`).
    public var radiusKm: Double = 50
    /// Refresh at least this often when woken (6 h).
    public var refreshIntervalSeconds: Double = 21_600
    /// Never refresh sooner than this after the previous refresh (0: whenever the threshold says so): a cap on the
    /// calls a walker in a dense centre makes, paid for in locations not monitored.
    public var minRefreshIntervalSeconds: Double = 0
    /// The `fixed` strategies' floor: refresh after max(largest region radius, this) metres.
    public var fixedMinimumMeters: Double = 500
    /// No second card within this time...
    public var cooldownSeconds: Double = 3_600
    /// ...for the same card (`network`: one "Espresso House card available" per hour, whichever branch) or for the
    /// same location (`location`).
    public var cooldownScope: CooldownScope = .network
    /// When the OS says the person is in a store region, post the card this much later, and withdraw it if the
    /// region's exit comes first (iOS: a time-triggered local notification removed on exit; Android has DWELL for
    /// this). 0: post at once. A walk-by leaves before the card shows; a visit stays.
    public var confirmSeconds: Double = 120
    /// Let the server fill spare slots with networks the user has no card for.
    public var includeOtherNetworks: Bool = false
    /// `staged`: OS region slots kept for the small store regions (the server is asked for the rest)...
    public var stagedSlots: Int = 4
    /// ...wide regions are at least this large, so the OS notices them early and the app can watch the store...
    public var stagedWideMinMeters: Double = 200
    /// ...and the app's own fix when a wide region wakes it: GPS on for this long. With `+gps`, also the lead a fix
    /// needs when GPS comes back from a rest.
    public var gpsFixSeconds: Double = 8
    /// `+gps`: once the OS puts the person near a store, the app follows them with its GPS and posts the card when
    /// its own fixes over this long show a stay at the store (`StayWindow`); it stops following when the OS reports
    /// the region's exit, or after `gpsMaxSeconds`.
    public var gpsConfirmSeconds: Double = 60
    public var gpsMaxSeconds: Double = 900
    /// `+gps`: GPS rests while the person is farther from every followed store than this speed would carry them
    /// before a fix is worth taking (a brisk walk; 0: GPS stays on while following).
    public var gpsApproachMetersPerSecond: Double = 2
    /// `+gps+motion`: what the app judges a stay on — `window`, the last `gpsConfirmSeconds` of fixes, or `still`,
    /// every fix since the motion sensor said the person stands (the average sharpens as the stay goes on, and GPS
    /// rests beside a store only once the average is clearly away from it). The study tried `still` and kept
    /// `window` (simulations/README.md).
    public var gpsStayEvidence: StayEvidence = .window
    /// `+gps`: a stay beside the followed stores (not at them) is checked again after this long at most (each check
    /// costs a window of GPS).
    public var gpsRestWhileStayingSeconds: Double = 300
    /// `+gps`: when the app's own fixes have not confirmed a stay this long after the OS put the person in a store's
    /// region, and the OS has not reported the exit (nor, with `+motion`, the sensor a walk), the app trusts the OS
    /// and posts the card (0: never). Indoors a phone's fixes scatter by tens of metres and a window may never settle
    /// where the OS, counting Wi-Fi, keeps the person inside.
    public var gpsTrustOsAfterSeconds: Double = 0
    /// iOS: a visit the OS reports (`CLVisit`, the app woken after the person stayed a while in one place) at a card
    /// store posts its card, with or without the app's own GPS (`ClientStateMachine.visited`). Off by default: the
    /// study measures it as a row (simulations/README.md).
    public var visitConfirmsStay: Bool = false
    /// `one`: every card is an alert, posted once the stay is confirmed (the product's first behaviour). `two`: a
    /// quiet card as soon as the OS puts the person at a card store — the nearest's, replacing, never stacked — and an
    /// alert only once the stay is confirmed, upgrading that card in place; a card on screen is removed when the
    /// person leaves (`ClientStateMachine+Tiers`).
    public var cardTiers: CardTiers = .one
    /// Two tiers: the quiet card comes this long after the OS's report, withdrawn if the exit comes first (0: at once).
    public var quietDelaySeconds: Double = 0
    /// Two tiers with `+motion`: the quiet card waits while the motion sensor says the person walks (a walk-by).
    public var quietRequiresStill: Bool = false
    /// Two tiers with `+gps`: the quiet card waits for a fix of the app's GPS (which the OS's report turned on) within
    /// the store's footprint: a walk-by beside the store gets none, one at its door one at once.
    public var quietRequiresFix: Bool = false
    /// Two tiers: a quiet card not upgraded within this long is removed at the next event the client handles (0: it
    /// stays until the person leaves).
    public var quietMaxSeconds: Double = 0
    /// Two tiers: the alert comes once the OS has counted the person inside the store's region this long and the stay
    /// is confirmed (0: at the confirmation); a scheduled alert is withdrawn if the exit comes first.
    public var alertMinStaySeconds: Double = 0
    /// Two tiers: the card on screen goes this long after the region's exit, unless the OS puts the person back in the
    /// region first (an exit the OS's scattered positions made up mid-stay); 0: at the exit.
    public var removeAfterExitSeconds: Double = 0

    public init() {}

    /// Whose cards the cool-down spaces out.
    public enum CooldownScope: String, Codable, Sendable, Hashable, CaseIterable {
        case network, location
    }

    /// What `+gps+motion` judges a stay on.
    public enum StayEvidence: String, Codable, Sendable, Hashable, CaseIterable {
        case window, still
    }

    /// One kind of card notification, or two (`cardTiers`).
    public enum CardTiers: String, Codable, Sendable, Hashable, CaseIterable {
        case one, two
    }
}

/// Keys as Swift names them (`radiusKm`): decode with `.convertFromSnakeCase` to read the study's `radius_km`, as
/// `AppSettings.decode(snakeCase:)` does. A key left out keeps its default, so a file names only what it changes.
/// (In this file with the type, so that `encode(to:)` is synthesized from the keys.)
extension AppSettings: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case radiusKm, refreshIntervalSeconds, minRefreshIntervalSeconds, fixedMinimumMeters, cooldownSeconds, cooldownScope
        case confirmSeconds, includeOtherNetworks, stagedSlots, stagedWideMinMeters, gpsFixSeconds, gpsConfirmSeconds
        case gpsMaxSeconds, gpsApproachMetersPerSecond, gpsStayEvidence, gpsRestWhileStayingSeconds, gpsTrustOsAfterSeconds
        case visitConfirmsStay, cardTiers, quietDelaySeconds, quietRequiresStill, quietMaxSeconds, alertMinStaySeconds
        case removeAfterExitSeconds, quietRequiresFix
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func read<T: Decodable>(_ key: CodingKeys, _ value: inout T) throws {
            if let v = try c.decodeIfPresent(T.self, forKey: key) { value = v }
        }
        self.init()
        try read(.radiusKm, &radiusKm)
        try read(.refreshIntervalSeconds, &refreshIntervalSeconds)
        try read(.minRefreshIntervalSeconds, &minRefreshIntervalSeconds)
        try read(.fixedMinimumMeters, &fixedMinimumMeters)
        try read(.cooldownSeconds, &cooldownSeconds)
        try read(.cooldownScope, &cooldownScope)
        try read(.confirmSeconds, &confirmSeconds)
        try read(.includeOtherNetworks, &includeOtherNetworks)
        try read(.stagedSlots, &stagedSlots)
        try read(.stagedWideMinMeters, &stagedWideMinMeters)
        try read(.gpsFixSeconds, &gpsFixSeconds)
        try read(.gpsConfirmSeconds, &gpsConfirmSeconds)
        try read(.gpsMaxSeconds, &gpsMaxSeconds)
        try read(.gpsApproachMetersPerSecond, &gpsApproachMetersPerSecond)
        try read(.gpsStayEvidence, &gpsStayEvidence)
        try read(.gpsRestWhileStayingSeconds, &gpsRestWhileStayingSeconds)
        try read(.gpsTrustOsAfterSeconds, &gpsTrustOsAfterSeconds)
        try read(.visitConfirmsStay, &visitConfirmsStay)
        try read(.cardTiers, &cardTiers)
        try read(.quietDelaySeconds, &quietDelaySeconds)
        try read(.quietRequiresStill, &quietRequiresStill)
        try read(.quietMaxSeconds, &quietMaxSeconds)
        try read(.alertMinStaySeconds, &alertMinStaySeconds)
        try read(.removeAfterExitSeconds, &removeAfterExitSeconds)
        try read(.quietRequiresFix, &quietRequiresFix)
    }
}
