import Foundation
import Geo
import OnCueContract
import RegionRefresh

/// A store the app follows with its own GPS (`+gps`) after the OS put the person near it.
struct GPSSession {
    var region: Region
    var started: Double
    var stores: [UnitVector]
    /// Since when the app's GPS has followed without a pause (the stay needs a whole window of fixes).
    var followedSince: Double
    var window = StayWindow()

    /// Metres from `position` to the nearest of the session's stores.
    func meters(to position: UnitVector) -> Double {
        stores.map { position.meters(to: $0) }.min() ?? .infinity
    }
}

/// `+gps`: the OS's report only starts the app's GPS; the card is posted when the app's own fixes show a stay at the
/// store for `gps_confirm_seconds` (`StayWindow`: a walk-by moves through in that time). The app follows the store
/// until the OS reports the region's exit (its own fixes would end it at the first stray one, and the OS sends no
/// second entry while it still counts the person inside) or `gps_max_seconds` have passed. GPS-on time counts once
/// however many stores are followed.
///
/// GPS is on only while it can tell something (the app keeps the OS's low-power updates meanwhile, which cost no GPS):
/// - while the person is farther from every followed store than they could cover at `gps_approach_meters_per_second`
///   before a fix is worth taking, it rests and comes back on `gps_fix_seconds` before they could be there — a
///   walk-by 80 m off pays for a few fixes, not for the whole crossing of the region;
/// - while the window shows a stay that is not at a followed store (the shop next door), it rests until the OS's
///   positions move or for `gps_rest_while_staying_seconds`;
/// - with `+motion`, while the phone's motion sensor says the person walks (no stay can be under way).
extension PhoneApp {
    func startSession(_ w: Watched, key: String, at time: Double) {
        guard sessions[key] == nil, wallet.card(for: w.region.networkId) != nil else { return }
        let centre = UnitVector(latitude: w.region.lat, longitude: w.region.lon)
        let stores = Recorder.locationIds(of: w.region).compactMap { storePositions[$0] }
        if gpsOnSince == nil && gpsAsleepUntil == nil {
            if walking(at: time) {
                restGPSWhileWalking(at: time)
            } else {
                resumeGPS(at: time, since: time)
            }
        }
        sessions[key] = GPSSession(region: w.region, started: time, stores: stores.isEmpty ? [centre] : stores, followedSince: time)
        recorder.event(
            ReplayEvent(
                time: time, kind: .gpsFix, location: w.region.id, network: w.region.networkId,
                distance: recorder.trueDistance(to: w.region), detail: "GPS on: following the store"))
    }

    /// Every trace fix while a store is followed: the app's fix is the recorded position, when GPS is on.
    func gpsTick(_ fix: PhoneFix) {
        guard !sessions.isEmpty else { return }
        // The time limit holds while GPS rests too (waking GPS only to give up would cost a fix).
        for key in sessions.keys.sorted() where fix.time - sessions[key]!.started >= scenario.app.gpsMaxSeconds {
            endSession(key, at: fix.time, reason: "gave up")
        }
        guard !sessions.isEmpty else { return }
        if walking(at: fix.time) {
            restGPSWhileWalking(at: fix.time)
            return
        }
        if let wakeAt = gpsAsleepUntil {
            let moved = gpsRestAnchor.map { fix.unit.meters(to: $0) > Self.restMovementMeters } ?? false
            guard fix.time >= wakeAt || moved else { return }
            resumeGPS(at: fix.time, since: max(gpsSleptAt, fix.time - scenario.app.gpsFixSeconds))
        }
        if fix.segment != gpsSegment {
            // A recording gap: the fixes before it say nothing of a stay after it.
            gpsSegment = fix.segment
            restartWindows(at: fix.time)
        }
        let nominal = scenario.groundTruth.nominalAccuracyMeters
        let reported = fix.traceAccuracy > 0 ? fix.traceAccuracy : nominal
        // For a single fix, "within reach" counts the accuracy at most as the nominal one: a coarse fix would stretch
        // the store over the pavement outside.
        let reach = scenario.groundTruth.storeRadiusMeters + min(reported, nominal)
        let sample = StayWindow.Sample(time: fix.time, position: fix.trueUnit, accuracy: reported)
        var distanceToReach = Double.infinity
        var stayingAway = true
        let wholeStay = judgesWholeStay
        for key in sessions.keys.sorted() {
            guard var s = sessions[key] else { continue }
            s.window.add(sample, window: scenario.app.gpsConfirmSeconds, keepingSince: wholeStay ? s.followedSince : nil)
            sessions[key] = s
            let stay = s.window.stay(now: fix.time, window: scenario.app.gpsConfirmSeconds, followedSince: s.followedSince)
            if let stay, stayed(at: stay, of: s) {
                notify(s.region, trigger: .gps, at: fix.time)
                endSession(key, at: fix.time, reason: "card shown")
                continue
            }
            let nearest = s.meters(to: fix.trueUnit)
            distanceToReach = min(distanceToReach, nearest - reach)
            stayingAway = stayingAway && stay.map { wholeStay ? clearlyAway($0, of: s) : true } ?? false
        }
        if stayingAway && !sessions.isEmpty {
            restGPSWhileStaying(at: fix)
        } else {
            restGPSIfFar(at: fix.time, distanceToReach: distanceToReach)
        }
    }

    /// `gps_stay_evidence: still` with `+motion`: every fix since GPS came on while the person stood is evidence of
    /// one stay (walking rests GPS and starts the evidence afresh).
    private var judgesWholeStay: Bool { motion != nil && scenario.app.gpsStayEvidence == "still" }

    /// The stay is beside the stores, not at them, beyond its own accuracy: more fixes would not bring it in.
    private func clearlyAway(_ stay: (position: UnitVector, accuracy: Double), of s: GPSSession) -> Bool {
        let nearest = s.meters(to: stay.position)
        return nearest - stay.accuracy > scenario.groundTruth.storeRadiusMeters + scenario.groundTruth.nominalAccuracyMeters
    }

    /// `+motion`: the sensor says the person walks.
    private func walking(at time: Double) -> Bool {
        motion?.isWalking(at: time, latency: scenario.app.motionLatencySeconds) ?? false
    }

    /// No stay can be under way while the person walks: GPS rests until the sensor says they stand (then a fix's
    /// lead and a whole window, as after any rest).
    private func restGPSWhileWalking(at time: Double) {
        turnGPSOff(at: time, restingUntil: min(gpsAsleepUntil ?? time, time))
    }

    /// A stay, but not at any followed store (beside it, in the shop next door): GPS rests until the OS's own
    /// low-power positions say the person moved, or for `gps_rest_while_staying_seconds` at most.
    private func restGPSWhileStaying(at fix: PhoneFix) {
        guard scenario.app.gpsApproachMetersPerSecond > 0, gpsOnSince != nil else { return }
        turnGPSOff(at: fix.time, restingUntil: fix.time + scenario.app.gpsRestWhileStayingSeconds, anchor: fix.unit)
    }

    /// A stay is at the session's store when its position is within the footprint of one of the session's stores —
    /// allowing the position's own accuracy, at most the nominal one, as the ground truth allows the nominal one —
    /// and not clearly nearer another card store (stores closer together than a footprint cannot be told apart).
    private func stayed(at stay: (position: UnitVector, accuracy: Double), of s: GPSSession) -> Bool {
        let footprint = scenario.groundTruth.storeRadiusMeters
        let nearest = s.meters(to: stay.position)
        guard nearest <= footprint + min(stay.accuracy, scenario.groundTruth.nominalAccuracyMeters) else { return false }
        var closestCardStore = Double.infinity
        for w in monitored.values where w.role != .refresh {
            for id in Recorder.locationIds(of: w.region) {
                if let p = storePositions[id] { closestCardStore = min(closestCardStore, stay.position.meters(to: p)) }
            }
        }
        return nearest <= closestCardStore + footprint
    }

    /// Rests GPS until the person could be within reach of a followed store, when that is worth more than the fix
    /// it costs to come back.
    private func restGPSIfFar(at time: Double, distanceToReach: Double) {
        let speed = scenario.app.gpsApproachMetersPerSecond
        guard speed > 0, !sessions.isEmpty, distanceToReach.isFinite, gpsOnSince != nil else { return }
        let rest = distanceToReach / speed
        guard rest >= 2 * scenario.app.gpsFixSeconds else { return }
        turnGPSOff(at: time, restingUntil: time + rest)
    }

    /// GPS off: the time since it came on is counted, and it rests until `restingUntil` (nil: no store is followed).
    /// The moment it went off bounds the next fix's lead; a rest that only changes its end keeps that moment.
    private func turnGPSOff(at time: Double, restingUntil: Double?, anchor: UnitVector? = nil) {
        if let since = gpsOnSince {
            recorder.gpsSeconds += time - since
            gpsSleptAt = time
        } else if gpsAsleepUntil == nil {
            gpsSleptAt = time
        }
        gpsOnSince = nil
        gpsAsleepUntil = restingUntil
        gpsRestAnchor = anchor
    }

    /// GPS on again: the windows start afresh, as the fixes while it rested are not the app's.
    private func resumeGPS(at time: Double, since: Double) {
        gpsOnSince = since
        if gpsAsleepUntil != nil {
            gpsAsleepUntil = nil
            gpsRestAnchor = nil
            restartWindows(at: time)
        }
    }

    private func restartWindows(at time: Double) {
        for key in sessions.keys {
            sessions[key]?.window.clear()
            sessions[key]?.followedSince = time
        }
    }

    func endSession(_ key: String, at time: Double, reason: String) {
        guard let s = sessions.removeValue(forKey: key) else { return }
        recorder.event(ReplayEvent(time: time, kind: .gpsFix, location: s.region.id, network: s.region.networkId, detail: "GPS off: \(reason)"))
        guard sessions.isEmpty else { return }
        turnGPSOff(at: time, restingUntil: nil)
    }

    /// Farther than a Wi-Fi position's scatter (20–50 m) from where the rest began: the person is on the move.
    static let restMovementMeters = 75.0
}
