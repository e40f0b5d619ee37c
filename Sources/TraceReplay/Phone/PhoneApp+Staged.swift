import Foundation
import Geo
import OnCueContract
import RegionRefresh

/// The `staged` strategy: a wide region wakes the app near a store; in its background time the app takes a GPS fix
/// of its own and either is at the store already (notify) or watches the store's own small region, as small as the
/// store but no smaller than the OS detects reliably, until the person arrives (notify) or leaves the wide region.
extension PhoneApp {
    func wideRegionEntered(_ wide: Watched, key wideKey: String, at time: Double, queue: inout EventQueue) {
        guard let fix = manager.lastFix else { return }
        recorder.gpsSeconds += scenario.app.gpsFixSeconds
        let here = fix.trueUnit
        // The trace's own accuracy where it has one; a phone GPS fix is typically good to about 10 m otherwise.
        let accuracy = fix.traceAccuracy > 0 ? fix.traceAccuracy : 10
        let centre = UnitVector(latitude: wide.region.lat, longitude: wide.region.lon)
        let footprint = scenario.groundTruth.storeRadiusMeters
        let distance = here.meters(to: centre)
        recorder.event(
            ReplayEvent(
                time: time, kind: .gpsFix, location: wide.region.id, network: wide.region.networkId,
                distance: (distance * 10).rounded() / 10, detail: String(format: "accuracy %.0f m", accuracy)))
        if strategy.gps {
            startSession(wide, key: wideKey, at: time)
            return
        }
        let smallKey = "small|" + wideKey
        guard monitored[smallKey] == nil else { return }
        var small = wide.region
        small.radiusMeters = min(wide.region.radiusMeters, max(footprint, manager.os.minReliableRadiusMeters))
        let smalls = monitored.filter { $0.value.role == .small }
        if smalls.count >= scenario.app.stagedSlots || manager.monitoredCount >= manager.os.maxRegions,
            let oldest = smalls.min(by: { ($0.value.since, $0.key) < ($1.value.since, $1.key) })
        {
            stop(oldest.key, at: time)
        }
        guard start(small, key: smallKey, role: .small, wideKey: wideKey, at: time, queue: &queue), let watched = monitored[smallKey] else { return }
        // Already at the store: the small region would never report an entry, so the card goes now (after the
        // confirmation delay, withdrawn if the person leaves the small region first).
        if distance <= footprint + accuracy { post(watched, key: smallKey, trigger: .appFix, at: time, queue: &queue) }
    }

    func stopSmallRegions(of wideKey: String, at time: Double) {
        for (key, w) in monitored.sorted(by: { $0.key < $1.key }) where w.role == .small && w.wideKey == wideKey { stop(key, at: time) }
    }
}
