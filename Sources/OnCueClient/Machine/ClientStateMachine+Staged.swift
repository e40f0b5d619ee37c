import Geo
import OnCueContract

/// The `staged` strategy: a wide region wakes the client near a store; in its background time it takes a fix of its
/// own and either is at the store already (the card) or watches the store's own small region, as small as the store
/// but no smaller than the platform detects reliably, until the person arrives (the card) or leaves the wide region.
extension ClientStateMachine {
    /// The client's own fix, asked for when a wide region reported the person near its store.
    mutating func answered(_ fix: PreciseFix?, at time: Double) {
        let waiting = awaitingFix
        awaitingFix = []
        guard let fix else { return }
        for key in waiting {
            guard let wide = monitored[key] else { continue }
            wideRegionFixed(wide, key: key, fix: fix, at: time)
        }
    }

    private mutating func wideRegionFixed(_ wide: Watched, key wideKey: String, fix: PreciseFix, at time: Double) {
        // A phone's GPS fix is typically good to about 10 m when the platform says nothing.
        let accuracy = fix.accuracy > 0 ? fix.accuracy : 10
        let centre = UnitVector(latitude: wide.region.lat, longitude: wide.region.lon)
        let footprint = settings.storeRadiusMeters
        let distance = fix.position.meters(to: centre)
        if strategy.gps {
            follow(wide, key: wideKey, at: time)
            return
        }
        let smallKey = "small|" + wideKey
        guard monitored[smallKey] == nil else { return }
        var small = wide.region
        small.radiusMeters = min(wide.region.radiusMeters, max(footprint, platform.minReliableRadiusMeters))
        let smalls = monitored.filter { $0.value.role == .small }
        if smalls.count >= app.stagedSlots || monitored.count >= platform.maxRegions,
            let oldest = smalls.min(by: { ($0.value.since, $0.key) < ($1.value.since, $1.key) })
        {
            release(oldest.key, at: time)
        }
        guard startMonitoring(small, key: smallKey, role: .small, wideKey: wideKey, at: time), let watched = monitored[smallKey] else { return }
        // Already at the store: the small region would never report an entry, so the card goes now (after the
        // confirmation delay, withdrawn if the person leaves the small region first).
        if distance <= footprint + accuracy { post(watched, key: smallKey, trigger: .appFix, at: time) }
    }

    mutating func releaseSmallRegions(of wideKey: String, at time: Double) {
        for (key, w) in monitored.sorted(by: { $0.key < $1.key }) where w.role == .small && w.wideKey == wideKey { release(key, at: time) }
    }
}
