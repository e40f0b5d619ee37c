import Geo
import OnCueContract

/// `app.visit_confirms_stay` (iOS `CLVisit`): the OS wakes the app when the person has stayed a while in one place
/// (`startMonitoringVisits`), at next to no power. A visit is evidence of a stay that the app's own GPS need not
/// gather: where its position lies within a card store's footprint (allowing the position's accuracy, at most the
/// nominal one, as the stay check does) and not clearly nearer another card store, the card is posted on it — whether
/// the app's GPS follows the store, has not settled, or the OS never reported the region's entry. With two tiers a
/// visit at a card store also posts its quiet card, visits confirming stays or not.
extension ClientStateMachine {
    mutating func visited(_ fix: LocationFix) {
        let reach = settings.storeRadiusMeters + min(fix.accuracy > 0 ? fix.accuracy : settings.nominalAccuracyMeters, settings.nominalAccuracyMeters)
        var nearest: [(key: String, meters: Double)] = []
        for key in monitored.keys.sorted() {
            guard let w = monitored[key], w.role != .refresh, wallet.card(for: w.region.networkId) != nil else { continue }
            let stores = Self.locationIds(of: w.region).compactMap { storePositions[$0] }
            let positions = stores.isEmpty ? [UnitVector(latitude: w.region.lat, longitude: w.region.lon)] : stores
            let meters = positions.map { fix.unit.meters(to: $0) }.min() ?? .infinity
            if meters <= reach { nearest.append((key, meters)) }
        }
        // Stores closer together than a footprint cannot be told apart: each of those within reach of the nearest gets
        // its card; one farther is the shop next door.
        guard let closest = nearest.map(\.meters).min() else { return }
        for (key, meters) in nearest where meters <= closest + settings.storeRadiusMeters {
            guard let w = monitored[key] else { continue }
            // With two tiers a visit is the OS putting the person at the store: the quiet card, and the alert only
            // when visits confirm stays.
            reportedInside(w, key: key, trigger: .visit, at: fix.time)
            guard app.visitConfirmsStay else { continue }
            scheduled[key] = nil
            notify(w.region, trigger: .visit, at: fix.time)
            endFollow(key, at: fix.time, reason: .cardShown)
            if w.role == .small { release(key, at: fix.time) }
        }
    }
}
