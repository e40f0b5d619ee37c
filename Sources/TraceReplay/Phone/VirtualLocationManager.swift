import Foundation
import LocationStore
import RegionRefresh

/// The phone OS's region monitoring and wake-ups, with the real limits of the chosen profile.
///
/// Fences are evaluated only at fix times. Callbacks go into the event queue with the profile's detection delay.
/// iOS: at most `maxRegions`, an entry needs the position `cushion` inside for `dwell` seconds, no entry for a region
/// the phone is already inside when monitoring starts (the app must `requestState`). Android: the accuracy-circle
/// overlap rule with `INITIAL_TRIGGER_ENTER`. Ideal: exact and instant.
final class VirtualLocationManager {
    /// Why the OS woke the app at a fix.
    enum Wake: String { case launch, significantChange = "slc_wake", visit = "visit_wake", everyFix = "fix" }

    struct Monitored {
        var key: String
        var region: Region
        var unit: Unit
        var cosRadius: Double
        var cosInner: Double
        var cosOuter: Double
        /// Within radius + the largest plausible accuracy: below this dot the overlap is 0 (skip the maths).
        var inside: Bool?
        var pendingSince: Double?
    }

    let os: OSModel
    private(set) var regions: [Monitored] = []
    private var rng: SeededRandom
    private(set) var lastFix: PhoneFix?
    private var lastSLC: (time: Double, unit: Unit)?
    private var visitAnchor: (time: Double, unit: Unit, fired: Bool)?
    private let cosSLC: Double
    private let cosVisit: Double
    private let mode: Mode
    private enum Mode { case cushion, overlap, exact }

    init(os: OSModel, seed: UInt64) {
        self.os = os
        rng = SeededRandom(seed: seed)
        cosSLC = Unit.cosOf(meters: os.slcMinMeters)
        cosVisit = Unit.cosOf(meters: os.visitRadiusMeters)
        mode = os.detection == "overlap" ? .overlap : os.detection == "exact" ? .exact : .cushion
    }

    var monitoredCount: Int { regions.count }
    func isMonitoring(_ key: String) -> Bool { regions.contains { $0.key == key } }

    private func delay() -> Double {
        let lo = os.detectionDelayMinSeconds, hi = os.detectionDelayMaxSeconds
        return hi > lo ? lo + (hi - lo) * Double.random(in: 0..<1, using: &rng) : lo
    }

    /// Starts monitoring; false (and nothing monitored) beyond the OS limit, as `monitoringDidFail` does.
    func startMonitoring(_ region: Region, key: String, now: Double, queue: inout EventQueue) -> Bool {
        guard regions.count < os.maxRegions else { return false }
        let r = region.radiusMeters
        let cushion = mode == .cushion ? min(os.cushionMeters, os.maxCushionFraction * r) : 0
        var m = Monitored(key: key, region: region, unit: Unit(latitude: region.lat, longitude: region.lon),
                          cosRadius: Unit.cosOf(meters: r), cosInner: Unit.cosOf(meters: r - cushion), cosOuter: Unit.cosOf(meters: r + cushion),
                          inside: nil, pendingSince: nil)
        if let fix = lastFix {
            let inside = currentlyInside(m, fix)
            m.inside = inside
            if inside && os.initialTriggerEntry { queue.push(now + delay(), .enter(regionKey: key)) }
        }
        regions.append(m)
        return true
    }

    func stopMonitoring(_ key: String) {
        regions.removeAll { $0.key == key }
    }

    /// `requestStateForRegion`: the OS answers from its current position without a cushion or dwell.
    func requestState(_ key: String, now: Double, queue: inout EventQueue) {
        guard let i = regions.firstIndex(where: { $0.key == key }), let fix = lastFix else { return }
        queue.push(now, .state(regionKey: key, inside: currentlyInside(regions[i], fix)))
    }

    private func currentlyInside(_ m: Monitored, _ fix: PhoneFix) -> Bool {
        switch mode {
        case .overlap:
            return accuracyOverlapFraction(distance: fix.unit.meters(to: m.unit), accuracy: fix.accuracy, fenceRadius: m.region.radiusMeters) >= os.entryOverlap
        default:
            return fix.unit.dot(m.unit) >= m.cosRadius
        }
    }

    /// Evaluates every fence at this fix and returns why the app is woken, if it is.
    func process(_ fix: PhoneFix, queue: inout EventQueue) -> Wake? {
        let t = fix.time
        for i in regions.indices {
            let dot = fix.unit.dot(regions[i].unit)
            guard let inside = regions[i].inside else {
                regions[i].inside = currentlyInside(regions[i], fix)
                if regions[i].inside == true && os.initialTriggerEntry { queue.push(t + delay(), .enter(regionKey: regions[i].key)) }
                continue
            }
            let crossing: Bool
            switch mode {
            case .exact:
                crossing = inside ? dot < regions[i].cosRadius : dot >= regions[i].cosRadius
            case .cushion:
                crossing = inside ? dot <= regions[i].cosOuter : dot >= regions[i].cosInner
            case .overlap:
                let r = regions[i].region.radiusMeters
                // Far outside radius + accuracy the overlap is 0 without any trigonometry.
                let f: Double = dot < Unit.cosOf(meters: r + fix.accuracy) ? 0
                    : accuracyOverlapFraction(distance: fix.unit.meters(to: regions[i].unit), accuracy: fix.accuracy, fenceRadius: r)
                crossing = inside ? f <= os.exitOverlap : f >= os.entryOverlap
            }
            guard crossing else { regions[i].pendingSince = nil; continue }
            let since = regions[i].pendingSince ?? t
            regions[i].pendingSince = since
            if t - since >= os.dwellSeconds {
                regions[i].inside = !inside
                regions[i].pendingSince = nil
                let key = regions[i].key
                queue.push(t + delay(), inside ? .exit(regionKey: key) : .enter(regionKey: key))
            }
        }
        defer { lastFix = fix }
        if lastFix == nil {
            lastSLC = (t, fix.unit)
            visitAnchor = (t, fix.unit, false)
            return .launch
        }
        if os.wakeOnEveryFix { return .everyFix }
        var wake: Wake?
        if let s = lastSLC, t - s.time >= os.slcMinSeconds, fix.unit.dot(s.unit) <= cosSLC {
            lastSLC = (t, fix.unit)
            wake = .significantChange
        }
        if os.visitMinMinutes > 0, let v = visitAnchor {
            if fix.unit.dot(v.unit) >= cosVisit {
                if !v.fired && t - v.time >= os.visitMinMinutes * 60 {
                    visitAnchor = (v.time, v.unit, true)
                    wake = wake ?? .visit
                }
            } else {
                visitAnchor = (t, fix.unit, false)
            }
        }
        return wake
    }
}
