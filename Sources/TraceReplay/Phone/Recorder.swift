import Foundation
import LocationStore
import RegionRefresh

/// Everything one strategy run produced: the event log, monitored intervals, notifications and counters.
final class Recorder {
    let keepEvents: Bool
    private(set) var events: [ReplayEvent] = []
    private(set) var intervals: [MonitoredInterval] = []
    private(set) var notifications: [Notification] = []
    var refreshCalls = 0
    var refreshFailures = 0
    var monitorFailures = 0
    private(set) var regionStarts = 0
    private(set) var regionStops = 0
    private var openSince: [String: Double] = [:]
    /// The true position at the current virtual time (for event distances).
    var truePosition = Unit(latitude: 0, longitude: 0)

    struct Notification: Sendable, Hashable {
        var time: Double
        var locationId: String
        var networkId: String
        var card: String
    }

    init(keepEvents: Bool) { self.keepEvents = keepEvents }

    func event(_ e: ReplayEvent) { if keepEvents { events.append(e) } }

    func trueDistance(to r: Region) -> Double {
        (truePosition.meters(to: Unit(latitude: r.lat, longitude: r.lon)) * 10).rounded() / 10
    }

    /// The store locations a region stands for: its id without a split-venue `#n` suffix, plus merged ids.
    static func locationIds(of r: Region) -> [String] {
        guard r.kind != .refresh else { return [] }
        let base = r.id.split(separator: "#", maxSplits: 1).first.map(String.init) ?? r.id
        return [base] + (r.mergedLocationIds ?? [])
    }

    func notify(region: Region, locationId: String, card: String, at time: Double) {
        notifications.append(Notification(time: time, locationId: locationId, networkId: region.networkId, card: card))
        event(ReplayEvent(time: time, kind: .notification, location: locationId, network: region.networkId, card: card,
                          distance: trueDistance(to: region), detail: "\(card) card available"))
    }

    func started(_ r: Region, key: String, at time: Double) {
        if r.kind != .refresh { regionStarts += 1 }
        openSince[key] = time
        event(ReplayEvent(time: time, kind: .monitorStart, location: r.id, network: r.networkId, distance: trueDistance(to: r),
                          detail: r.kind == .refresh ? "refresh region \(Int(r.radiusMeters)) m" : "\(Int(r.radiusMeters)) m"))
    }

    func stopped(_ r: Region, key: String, at time: Double, final: Bool = false) {
        if !final {
            if r.kind != .refresh { regionStops += 1 }
            event(ReplayEvent(time: time, kind: .monitorStop, location: r.id, network: r.networkId, distance: trueDistance(to: r)))
        }
        let start = openSince.removeValue(forKey: key) ?? time
        intervals.append(MonitoredInterval(regionId: r.id, locationIds: Self.locationIds(of: r), networkId: r.networkId, lat: r.lat, lon: r.lon,
                                           radiusMeters: r.radiusMeters, isRefreshRegion: r.kind == .refresh, start: start, end: time))
    }
}
