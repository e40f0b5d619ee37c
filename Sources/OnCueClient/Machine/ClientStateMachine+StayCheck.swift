import Geo
import OnCueContract

/// `+gps`: the OS's report only starts the client's GPS; the card is posted when its own fixes show a stay at the
/// store for `gps_confirm_seconds` (`StayWindow`: a walk-by moves through in that time). The client follows the
/// store until the OS reports the region's exit (its own fixes would end it at the first stray one, and the OS sends
/// no second entry while it still counts the person inside) or `gps_max_seconds` have passed. GPS-on time counts
/// once however many stores are followed.
///
/// GPS is on only while it can tell something (the low-power updates go on meanwhile, which cost no GPS):
/// - while the person is farther from every followed store than they could cover at `gps_approach_meters_per_second`
///   before a fix is worth taking, it rests and comes back `gps_fix_seconds` before they could be there — a
///   walk-by 80 m off pays for a few fixes, not for the whole crossing of the region;
/// - while the window shows a stay that is not at a followed store (the shop next door), it rests until the
///   low-power positions move or for `gps_rest_while_staying_seconds`;
/// - with `+motion`, while the motion sensor says the person walks (no stay can be under way).
extension ClientStateMachine {
    mutating func follow(_ w: Watched, key: String, at time: Double) {
        guard follows[key] == nil, wallet.card(for: w.region.networkId) != nil else { return }
        let centre = UnitVector(latitude: w.region.lat, longitude: w.region.lon)
        let stores = Self.locationIds(of: w.region).compactMap { storePositions[$0] }
        if gpsOnSince == nil && gpsAsleepUntil == nil {
            if walkingNow {
                restGPSWhileWalking(at: time)
            } else {
                resumeGPS(at: time, since: time)
            }
        }
        follows[key] = StoreFollow(region: w.region, started: time, stores: stores.isEmpty ? [centre] : stores, followedSince: time)
        emit(.note(.followingStore(w.region)))
    }

    /// A location update while a store is followed: the precise fix, when GPS is on, goes into each window.
    mutating func located(_ update: LocationUpdate, at time: Double) {
        // The low-power position comes with no accuracy (it may be a cell's, a kilometre off): only a GPS fix, with
        // its own accuracy, says the person left a store unseen.
        if let fix = update.precise { observed(fix.position, accuracy: fix.accuracy, at: time) }
        guard !follows.isEmpty else { return }
        // The time limit holds while GPS rests too (waking GPS only to give up would cost a fix).
        for key in follows.keys.sorted() where time - follows[key]!.started >= app.gpsMaxSeconds {
            endFollow(key, at: time, reason: .gaveUp)
        }
        guard !follows.isEmpty else { return }
        if walkingNow {
            restGPSWhileWalking(at: time)
            holdAll(.walking)
            return
        }
        trustTheOS(at: time)
        guard !follows.isEmpty else { return }
        if let wakeAt = gpsAsleepUntil {
            let moved = gpsRestAnchor.map { update.coarse.meters(to: $0) > Self.restMovementMeters } ?? false
            guard time >= wakeAt || moved else { return }
            resumeGPS(at: time, since: max(gpsSleptAt, time - app.gpsFixSeconds))
        }
        guard let fix = update.precise else { return }
        if update.stream != gpsStream {
            // A break in the fixes: those before it say nothing of a stay after it.
            gpsStream = update.stream
            restartWindows(at: time)
        }
        judge(fix, coarse: update.coarse, at: time)
    }

    private mutating func judge(_ fix: PreciseFix, coarse: UnitVector, at time: Double) {
        let nominal = settings.nominalAccuracyMeters
        let reported = fix.accuracy > 0 ? fix.accuracy : nominal
        // For a single fix, "within reach" counts the accuracy at most as the nominal one: a coarse fix would stretch
        // the store over the pavement outside.
        let reach = settings.storeRadiusMeters + min(reported, nominal)
        let sample = StayWindow.Sample(time: time, position: fix.position, accuracy: reported)
        var distanceToReach = Double.infinity
        var stayingAway = true
        let wholeStay = judgesWholeStay
        for key in follows.keys.sorted() {
            guard var s = follows[key] else { continue }
            if let due = s.alertDue {
                // Confirmed, waiting for the stay to last: one fix then says whether the person is still there.
                guard time >= due else { continue }
                if s.meters(to: fix.position) <= reach { notify(s.region, trigger: .gps, at: time) }
                endFollow(key, at: time, reason: .cardShown)
                continue
            }
            if s.meters(to: fix.position) <= reach { fixAtStore(key, at: time) }
            s.window.add(sample, window: app.gpsConfirmSeconds, keepingSince: wholeStay ? s.followedSince : nil)
            follows[key] = s
            let stay = s.window.stay(now: time, window: app.gpsConfirmSeconds, followedSince: s.followedSince)
            let hold =
                stay.map { self.hold(at: $0, of: s) }
                ?? s.window.pendingHold(now: time, window: app.gpsConfirmSeconds, followedSince: s.followedSince)
            guard let hold else {
                if let due = alertDue(for: key, s), time < due {
                    follows[key]?.confirmedAt = time
                    follows[key]?.alertDue = due
                    setHold(.stayTooShort, key)
                    continue
                }
                notify(s.region, trigger: .gps, at: time)
                endFollow(key, at: time, reason: .cardShown)
                continue
            }
            setHold(hold, key)
            let nearest = s.meters(to: fix.position)
            distanceToReach = min(distanceToReach, nearest - reach)
            stayingAway = stayingAway && stay.map { wholeStay ? clearlyAway($0, of: s) : true } ?? false
        }
        if let due = waitingForAlertsUntil {
            // Every follow is confirmed and waits for its alert: GPS rests until a fix's lead before the first is due.
            restGPSUntil(due - app.gpsFixSeconds, at: time)
        } else if stayingAway && !follows.isEmpty {
            if restGPSWhileStaying(at: time, anchor: coarse) { holdAll(.stayingElsewhere) }
        } else if restGPSIfFar(at: time, distanceToReach: distanceToReach) {
            holdAll(.far)
        }
    }

    /// Two tiers: when a confirmed stay's alert is due (the OS's report plus `alert_min_stay_seconds`); nil when it
    /// comes at the confirmation.
    private func alertDue(for key: String, _ s: StoreFollow) -> Double? {
        guard twoTiers, app.alertMinStaySeconds > 0 else { return nil }
        return (tiers?.insideSince[key] ?? s.started) + app.alertMinStaySeconds
    }

    /// The first alert due, when every follow is a confirmed stay waiting for one.
    private var waitingForAlertsUntil: Double? {
        let dues = follows.values.map(\.alertDue)
        guard !dues.isEmpty, dues.allSatisfy({ $0 != nil }) else { return nil }
        return dues.compactMap { $0 }.min()
    }

    /// Rests GPS until `until`, when that saves more than a fix's time.
    private mutating func restGPSUntil(_ until: Double, at time: Double) {
        guard gpsOnSince != nil, until - time >= 2 * app.gpsFixSeconds else { return }
        turnGPSOff(at: time, restingUntil: until)
    }

    /// `app.gps_trust_os_after_seconds`: a follow the app's GPS has not settled in that long, while the OS still
    /// counts the person inside (an exit ends the follow), gets its card on the OS's word.
    private mutating func trustTheOS(at time: Double) {
        let after = app.gpsTrustOsAfterSeconds
        guard after > 0 else { return }
        for key in follows.keys.sorted() where time - follows[key]!.started >= after {
            notify(follows[key]!.region, trigger: .trustedOS, at: time)
            endFollow(key, at: time, reason: .cardShown)
        }
    }

    /// Tells the app's log the rule now holding a follow's card, when it changed (the replay's loss split reads it).
    private mutating func setHold(_ hold: ClientNote.StayHold, _ key: String) {
        guard let s = follows[key], s.hold != hold else { return }
        follows[key]?.hold = hold
        emit(.note(.stayPending(s.region, hold)))
    }

    private mutating func holdAll(_ hold: ClientNote.StayHold) {
        for key in follows.keys.sorted() { setHold(hold, key) }
    }

    /// `gps_stay_evidence: still` with `+motion`: every fix since GPS came on while the person stood is evidence of
    /// one stay (walking rests GPS and starts the evidence afresh).
    private var judgesWholeStay: Bool { strategy.motion && app.gpsStayEvidence == .still }

    /// `+motion`: the sensor says the person walks.
    private var walkingNow: Bool { strategy.motion && walking }

    /// The stay is beside the stores, not at them, beyond its own accuracy: more fixes would not bring it in.
    private func clearlyAway(_ stay: (position: UnitVector, accuracy: Double), of s: StoreFollow) -> Bool {
        let nearest = s.meters(to: stay.position)
        return nearest - stay.accuracy > settings.storeRadiusMeters + settings.nominalAccuracyMeters
    }

    /// A stay is at the follow's store when its position is within the footprint of one of its stores — allowing
    /// the position's own accuracy, at most the nominal one — and not clearly nearer another card store (stores
    /// closer together than a footprint cannot be told apart). Nil when it is; else the rule that says it is not.
    private func hold(at stay: (position: UnitVector, accuracy: Double), of s: StoreFollow) -> ClientNote.StayHold? {
        let footprint = settings.storeRadiusMeters
        let nearest = s.meters(to: stay.position)
        guard nearest <= footprint + min(stay.accuracy, settings.nominalAccuracyMeters) else { return .outsideFootprint }
        var closestCardStore = Double.infinity
        for w in monitored.values where w.role != .refresh {
            for id in Self.locationIds(of: w.region) {
                if let p = storePositions[id] { closestCardStore = min(closestCardStore, stay.position.meters(to: p)) }
            }
        }
        return nearest <= closestCardStore + footprint ? nil : .nearerAnotherStore
    }

    /// No stay can be under way while the person walks: GPS rests until the sensor says they stand (then a fix's
    /// lead and a whole window, as after any rest).
    private mutating func restGPSWhileWalking(at time: Double) {
        turnGPSOff(at: time, restingUntil: min(gpsAsleepUntil ?? time, time))
    }

    /// A stay, but not at any followed store: GPS rests until the low-power positions say the person moved, or for
    /// `gps_rest_while_staying_seconds` at most.
    @discardableResult
    private mutating func restGPSWhileStaying(at time: Double, anchor: UnitVector) -> Bool {
        guard app.gpsApproachMetersPerSecond > 0, gpsOnSince != nil else { return false }
        turnGPSOff(at: time, restingUntil: time + app.gpsRestWhileStayingSeconds, anchor: anchor)
        return true
    }

    /// Rests GPS until the person could be within reach of a followed store, when that is worth more than the fix
    /// it costs to come back.
    @discardableResult
    private mutating func restGPSIfFar(at time: Double, distanceToReach: Double) -> Bool {
        let speed = app.gpsApproachMetersPerSecond
        guard speed > 0, !follows.isEmpty, distanceToReach.isFinite, gpsOnSince != nil else { return false }
        let rest = distanceToReach / speed
        guard rest >= 2 * app.gpsFixSeconds else { return false }
        turnGPSOff(at: time, restingUntil: time + rest)
        return true
    }

    /// GPS off, resting until `restingUntil` (nil: no store is followed). The moment it went off bounds the next
    /// fix's lead; a rest that only changes its end keeps that moment.
    private mutating func turnGPSOff(at time: Double, restingUntil: Double?, anchor: UnitVector? = nil) {
        if gpsOnSince != nil {
            emit(.stopPreciseLocation)
            gpsSleptAt = time
        } else if gpsAsleepUntil == nil {
            gpsSleptAt = time
        }
        gpsOnSince = nil
        gpsAsleepUntil = restingUntil
        gpsRestAnchor = anchor
    }

    /// GPS on again: the windows start afresh, as the fixes while it rested are not the client's.
    private mutating func resumeGPS(at time: Double, since: Double) {
        gpsOnSince = since
        emit(.startPreciseLocation(countedFrom: since))
        if gpsAsleepUntil != nil {
            gpsAsleepUntil = nil
            gpsRestAnchor = nil
            restartWindows(at: time)
        }
    }

    private mutating func restartWindows(at time: Double) {
        for key in follows.keys {
            follows[key]?.window.clear()
            follows[key]?.followedSince = time
        }
    }

    mutating func endFollow(_ key: String, at time: Double, reason: ClientNote.FollowEnd) {
        guard let s = follows.removeValue(forKey: key) else { return }
        emit(.note(.stoppedFollowing(s.region, reason)))
        guard follows.isEmpty else { return }
        turnGPSOff(at: time, restingUntil: nil)
    }

    /// Farther than a Wi-Fi position's scatter (20–50 m) from where the rest began: the person is on the move.
    static let restMovementMeters = 75.0
}
