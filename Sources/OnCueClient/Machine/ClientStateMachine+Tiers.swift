import Geo
import OnCueContract

/// Two tiers of card (`app.card_tiers: two`): what a person wants at the till is the card already on the screen, and
/// what they hate is a buzz for a shop they walked past. So:
/// - when the OS puts the person at a card store (an entry, a dwell, a state answer, a visit), the client posts a
///   **quiet** card — no sound, no screen wake — for the nearest card store it knows of, replacing a quiet card of
///   another store rather than stacking (`quiet_delay_seconds` and, with `+motion`, `quiet_requires_still` filter
///   walk-bys first);
/// - when the stay is confirmed by the strategy's evidence (its GPS window, the confirmation delay, a visit), and has
///   lasted `alert_min_stay_seconds` since the OS's report, the card becomes an **alert**: the same notification,
///   upgraded in place, never a second card; the cool-down spaces alerts, not quiet cards. With `+gps` the follow
///   goes on after the confirmation, GPS resting, and one fix when the time has come must still find the person at
///   the store (the OS's exit can come minutes after they left); other evidence waits for the time unless the exit
///   comes first;
/// - a card on screen is **removed** when the person leaves: the region's exit (iOS delivers it in the background,
///   so the app can call `removeDeliveredNotifications`), a wake or location update whose position is far from the
///   store, or, for a quiet card never upgraded, `quiet_max_seconds`. iOS gives no guaranteed timer, so the last is
///   checked at the next event the client handles.
extension ClientStateMachine {
    /// The card on screen and what waits to be shown, with two tiers.
    struct TierState: Sendable, Codable {
        var shown: ShownCard?
        /// Quiet cards waiting for their delay or for the person to stand still, by region key.
        var pendingQuiet: [String: PendingCard] = [:]
        /// Alerts whose stay is confirmed, waiting for it to last `alert_min_stay_seconds`, by region key.
        var pendingAlert: [String: PendingCard] = [:]
        /// Since when the OS has counted the person inside each store region (until its exit).
        var insideSince: [String: Double] = [:]
        /// The last position the client was told of (a wake's fix, a location update's GPS fix).
        var lastPosition: UnitVector?
        /// `remove_after_exit_seconds`: the card on screen left its region's exit behind, and the wake that removes it.
        var removal: (key: String, wakeId: Int)?

        enum CodingKeys: String, CodingKey {
            case shown, pendingQuiet, pendingAlert, insideSince, lastPosition, removalKey, removalWake
        }

        init() {}

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            shown = try c.decodeIfPresent(ShownCard.self, forKey: .shown)
            pendingQuiet = try c.decodeIfPresent([String: PendingCard].self, forKey: .pendingQuiet) ?? [:]
            pendingAlert = try c.decodeIfPresent([String: PendingCard].self, forKey: .pendingAlert) ?? [:]
            insideSince = try c.decodeIfPresent([String: Double].self, forKey: .insideSince) ?? [:]
            lastPosition = try c.decodeIfPresent(UnitVector.self, forKey: .lastPosition)
            if let key = try c.decodeIfPresent(String.self, forKey: .removalKey), let id = try c.decodeIfPresent(Int.self, forKey: .removalWake) {
                removal = (key, id)
            }
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfPresent(shown, forKey: .shown)
            try c.encode(pendingQuiet, forKey: .pendingQuiet)
            try c.encode(pendingAlert, forKey: .pendingAlert)
            try c.encode(insideSince, forKey: .insideSince)
            try c.encodeIfPresent(lastPosition, forKey: .lastPosition)
            try c.encodeIfPresent(removal?.key, forKey: .removalKey)
            try c.encodeIfPresent(removal?.wakeId, forKey: .removalWake)
        }
    }

    struct ShownCard: Sendable, Codable {
        var key: String
        var notice: CardNotice
        var since: Double
    }

    struct PendingCard: Sendable, Codable {
        var wakeId: Int?
        var region: Region
        var trigger: CardTrigger
        var due: Double
        /// `quiet_requires_fix`: a GPS fix has put the person within the store's footprint.
        var fixAtStore: Bool?
    }

    var twoTiers: Bool { app.cardTiers == .two }

    var tierState: TierState {
        get { tiers ?? TierState() }
        set { tiers = newValue }
    }

    /// The OS put the person in the store region `key`: the quiet card, unless a filter holds it back for now.
    mutating func reportedInside(_ w: Watched, key: String, trigger: CardTrigger, at time: Double) {
        guard twoTiers, w.role != .refresh, w.role != .wide, wallet.card(for: w.region.networkId) != nil else { return }
        if tierState.insideSince[key] == nil { tierState.insideSince[key] = time }
        // Back inside before the removal after an exit: the card stays.
        if let removal = tierState.removal, removal.key == key {
            tierState.removal = nil
            emit(.cancelWake(id: removal.wakeId))
        }
        guard tierState.shown?.key != key, tierState.pendingQuiet[key] == nil else { return }
        let delay = app.quietDelaySeconds
        if delay > 0 || quietWaitsForStill || quietWaitsForFix {
            var wakeId: Int?
            if delay > 0 {
                nextWakeId += 1
                wakeId = nextWakeId
                emit(.scheduleWake(id: nextWakeId, at: time + delay))
            }
            tierState.pendingQuiet[key] = PendingCard(wakeId: wakeId, region: w.region, trigger: trigger, due: time + delay)
            return
        }
        showQuiet(w.region, key: key, trigger: trigger, at: time)
    }

    private var quietWaitsForStill: Bool { app.quietRequiresStill && strategy.motion && walking }
    private var quietWaitsForFix: Bool { app.quietRequiresFix && strategy.gps }

    /// Whether a waiting quiet card may come now: its delay passed, the person stands (if asked), a fix put them at
    /// the store (if asked).
    private func quietMayCome(_ p: PendingCard, at time: Double) -> Bool {
        p.due <= time && !quietWaitsForStill && (!quietWaitsForFix || p.fixAtStore == true)
    }

    /// Shows the quiet card waiting for `key` when it may come now.
    private mutating func releaseQuiet(_ key: String, at time: Double) {
        guard let p = tierState.pendingQuiet[key], tierState.insideSince[key] != nil, quietMayCome(p, at: time) else { return }
        tierState.pendingQuiet[key] = nil
        showQuiet(p.region, key: key, trigger: p.trigger, at: time)
    }

    /// `quiet_requires_fix`: a GPS fix of the follow `key` lies within its store's footprint.
    mutating func fixAtStore(_ key: String, at time: Double) {
        guard twoTiers, tierState.pendingQuiet[key] != nil else { return }
        tierState.pendingQuiet[key]?.fixAtStore = true
        releaseQuiet(key, at: time)
    }

    /// Posts the quiet card of `region`, unless an alert is on screen or a nearer store's quiet card is.
    private mutating func showQuiet(_ region: Region, key: String, trigger: CardTrigger, at time: Double) {
        if let shown = tierState.shown, tierState.removal?.key != shown.key {
            if shown.notice.tier == .alert || shown.key == key { return }
            if let here = tierState.lastPosition, Self.meters(here, shown.notice.region) < Self.meters(here, region) { return }
        }
        let n = notice(region, trigger, tier: .quiet)
        tierState.shown = ShownCard(key: key, notice: n, since: time)
        emit(.postCard(n))
    }

    private static func meters(_ here: UnitVector, _ region: Region) -> Double {
        here.meters(to: UnitVector(latitude: region.lat, longitude: region.lon))
    }

    /// The stay is confirmed: the alert now, or once it has lasted `alert_min_stay_seconds`. False when the cool-down
    /// holds it back (the quiet card stays).
    mutating func confirmAlert(_ region: Region, trigger: CardTrigger, at time: Double) {
        let key = regionKey(of: region)
        // A `+gps` follow waits for the stay to last itself, and a fix then found the person still at the store.
        if let key, trigger != .gps, app.alertMinStaySeconds > 0, let since = tierState.insideSince[key], time < since + app.alertMinStaySeconds {
            guard tierState.pendingAlert[key] == nil else { return }
            nextWakeId += 1
            let due = since + app.alertMinStaySeconds
            tierState.pendingAlert[key] = PendingCard(wakeId: nextWakeId, region: region, trigger: trigger, due: due)
            emit(.note(.cardScheduled(notice(region, trigger), dueInSeconds: due - time)))
            emit(.scheduleWake(id: nextWakeId, at: due))
            return
        }
        alertNow(region, key: key, trigger: trigger, at: time)
    }

    private mutating func alertNow(_ region: Region, key: String?, trigger: CardTrigger, at time: Double) {
        guard let n = admitAlert(region, trigger: trigger, at: time) else { return }
        // Upgrades the quiet card in place (the same identifier), or replaces whatever else is on screen.
        tierState.shown = ShownCard(key: key ?? region.id, notice: n, since: time)
        emit(.postCard(n))
    }

    /// A wake the tiers scheduled: a quiet card's delay, or an alert's stay; true when it was one of theirs.
    mutating func tierWakeDue(_ id: Int, at time: Double) -> Bool {
        if let removal = tierState.removal, removal.wakeId == id {
            tierState.removal = nil
            removeShown { $0.key == removal.key }
            return true
        }
        if let key = tierState.pendingQuiet.first(where: { $0.value.wakeId == id })?.key {
            tierState.pendingQuiet[key]?.wakeId = nil
            releaseQuiet(key, at: time)
            return true
        }
        if let key = tierState.pendingAlert.first(where: { $0.value.wakeId == id })?.key,
            let p = tierState.pendingAlert.removeValue(forKey: key)
        {
            if tierState.insideSince[key] != nil { alertNow(p.region, key: key, trigger: p.trigger, at: time) }
            return true
        }
        return false
    }

    /// The motion sensor says the person stands: quiet cards that waited for it, and whose delay has passed, come.
    mutating func stoodStill(at time: Double) {
        guard twoTiers, !walking else { return }
        for key in tierState.pendingQuiet.keys.sorted() { releaseQuiet(key, at: time) }
    }

    /// The person left the region `key` (its exit), or it is no longer monitored: what waited is withdrawn, and its
    /// card on screen is removed — at once, or `remove_after_exit_seconds` after an exit unless they come back first.
    mutating func leftStore(_ key: String, exitAt time: Double? = nil) {
        guard twoTiers, tiers != nil else { return }
        tierState.insideSince[key] = nil
        // A card waiting for its time is a pending notification on the platform (a time trigger): withdrawn.
        for (pending, tier) in [
            (tierState.pendingQuiet.removeValue(forKey: key), CardTier.quiet), (tierState.pendingAlert.removeValue(forKey: key), .alert),
        ] {
            guard let p = pending else { continue }
            emit(.withdrawCard(notice(p.region, p.trigger, tier: tier)))
            if let id = p.wakeId { emit(.cancelWake(id: id)) }
        }
        if let time, app.removeAfterExitSeconds > 0, tierState.shown?.key == key {
            if tierState.removal?.key == key { return }
            nextWakeId += 1
            tierState.removal = (key, nextWakeId)
            emit(.scheduleWake(id: nextWakeId, at: time + app.removeAfterExitSeconds))
            return
        }
        if tierState.removal?.key == key { tierState.removal = nil }
        removeShown(where: { $0.key == key })
    }

    /// A position the client was told of: a card on screen far from it is of a store the person left unseen.
    mutating func observed(_ position: UnitVector, accuracy: Double, at time: Double) {
        guard twoTiers else { return }
        tierState.lastPosition = position
        removeShown { shown in
            Self.meters(position, shown.notice.region) > shown.notice.region.radiusMeters + max(accuracy, 0) + Self.leftStoreMarginMeters
        }
    }

    /// `quiet_max_seconds`: a quiet card never upgraded goes at the next event after that long.
    mutating func expireQuietCard(at time: Double) {
        guard twoTiers, app.quietMaxSeconds > 0, let shown = tiers?.shown, shown.notice.tier == .quiet,
            time - shown.since >= app.quietMaxSeconds
        else { return }
        removeShown { _ in true }
    }

    private mutating func removeShown(where condition: (ShownCard) -> Bool) {
        guard let shown = tierState.shown, condition(shown) else { return }
        tierState.shown = nil
        emit(.removeCard(shown.notice))
    }

    /// The monitored store region a region stands for.
    private func regionKey(of region: Region) -> String? {
        monitored.first { $0.value.region.id == region.id && $0.value.role != .refresh }?.key
    }

    /// Beyond the region's radius and the position's accuracy by this much, the person is not at the store.
    static let leftStoreMarginMeters = 100.0
}
