import Foundation
import Geo
import RegionRefresh

/// A store the app follows with its own GPS (`+gps`) after the OS put the person near it.
struct GPSSession {
    var region: Region
    var started: Double
    var stores: [UnitVector]
    /// Since when the app's fixes have been within the footprint (nil: not now).
    var atStoreSince: Double?
}

/// `+gps`: the OS's report only starts the app's GPS; the card is posted when the app's own fixes have stayed within
/// the store's footprint for `gps_confirm_seconds` (a walk-by passes in less), and GPS goes off when the person leaves
/// the region or after `gps_max_seconds`. GPS-on time counts once however many stores are followed.
extension PhoneApp {
    func startSession(_ w: Watched, key: String, at time: Double) {
        guard sessions[key] == nil, wallet.card(for: w.region.networkId) != nil else { return }
        let centre = UnitVector(latitude: w.region.lat, longitude: w.region.lon)
        let stores = Recorder.locationIds(of: w.region).compactMap { storePositions[$0] }
        if sessions.isEmpty { gpsOnSince = time }
        sessions[key] = GPSSession(region: w.region, started: time, stores: stores.isEmpty ? [centre] : stores)
        recorder.event(
            ReplayEvent(
                time: time, kind: .gpsFix, location: w.region.id, network: w.region.networkId,
                distance: recorder.trueDistance(to: w.region), detail: "GPS on: following the store"))
    }

    /// Every trace fix while GPS is on: the app's fix is the recorded position. "At the store" is within the footprint
    /// plus the fix's accuracy, counted at most as the nominal accuracy: a coarse fix would stretch the store over the
    /// pavement outside, and a slow walk-by would stay "inside" for a minute.
    func gpsTick(_ fix: PhoneFix) {
        guard !sessions.isEmpty else { return }
        let nominal = scenario.groundTruth.nominalAccuracyMeters
        let accuracy = fix.traceAccuracy > 0 ? min(fix.traceAccuracy, nominal) : nominal
        let footprint = scenario.groundTruth.storeRadiusMeters
        // Near several card stores the fix may be within reach of two: a store clearly farther than the nearest (by more
        // than a footprint) is not where the person is; stores closer together than that cannot be told apart.
        var closestCardStore = Double.infinity
        for w in monitored.values where w.role != .refresh {
            for id in Recorder.locationIds(of: w.region) {
                if let p = storePositions[id] { closestCardStore = min(closestCardStore, fix.trueUnit.meters(to: p)) }
            }
        }
        for key in sessions.keys.sorted() {
            guard var s = sessions[key] else { continue }
            let nearest = s.stores.map { fix.trueUnit.meters(to: $0) }.min() ?? .infinity
            if nearest <= footprint + accuracy && nearest <= closestCardStore + footprint {
                let since = s.atStoreSince ?? fix.time
                s.atStoreSince = since
                sessions[key] = s
                if fix.time - since >= scenario.app.gpsConfirmSeconds {
                    notify(s.region, trigger: .gps, at: fix.time)
                    endSession(key, at: fix.time, reason: "card shown")
                }
                continue
            }
            s.atStoreSince = nil
            sessions[key] = s
            let centre = UnitVector(latitude: s.region.lat, longitude: s.region.lon)
            if fix.trueUnit.meters(to: centre) > s.region.radiusMeters + accuracy {
                endSession(key, at: fix.time, reason: "left the region")
            } else if fix.time - s.started >= scenario.app.gpsMaxSeconds {
                endSession(key, at: fix.time, reason: "gave up")
            }
        }
    }

    func endSession(_ key: String, at time: Double, reason: String) {
        guard let s = sessions.removeValue(forKey: key) else { return }
        recorder.event(ReplayEvent(time: time, kind: .gpsFix, location: s.region.id, network: s.region.networkId, detail: "GPS off: \(reason)"))
        if sessions.isEmpty, let since = gpsOnSince {
            recorder.gpsSeconds += time - since
            gpsOnSince = nil
        }
    }
}
