import Foundation
import Geo
import LocationStore
import OnCueContract
import RegionRefresh

/// The phone OS's region monitoring and wake-ups, with the real limits of the chosen profile.
///
/// Fences are evaluated at the OS's own cadence (see `FenceClock`), with the position the OS has then (a fix of the
/// scenario's fix model), and callbacks go into the event queue with the profile's delivery delay.
/// iOS: at most `maxRegions`, an entry needs the position `cushion` inside for `dwell` seconds, no entry for a region
/// the phone is already inside when monitoring starts (the app must `requestState`, whose answer has the same cushion
/// and delay). Android: the overlap rule on the smaller circle, `INITIAL_TRIGGER_ENTER` at the next check, DWELL
/// fences, periodic wake-ups instead of significant changes. Ideal: exact and instant, at every fix.
final class VirtualLocationManager {
    /// Why the OS woke the app at a fix.
    enum Wake: String {
        case launch
        case significantChange = "slc_wake"
        case visit = "visit_wake"
        case periodic = "periodic_wake"
        case everyFix = "fix"
    }

    /// What the app registered a region for.
    enum Trigger { case entry, dwell }

    struct Monitored {
        var key: String
        var region: Region
        var trigger: Trigger
        var unit: UnitVector
        var cosRadius: Double
        var cosInner: Double
        var cosOuter: Double
        var inside: Bool?
        var pendingSince: Double?
        /// When the OS last decided the phone entered (for DWELL), and whether DWELL has fired since.
        var enteredAt: Double?
        var dwellFired = false
    }

    let os: OSModel
    private(set) var regions: [Monitored] = []
    private var rng: SeededRandom
    /// The latest fix (what a state request or the app's wake sees).
    private(set) var lastFix: PhoneFix?
    private var clock: FenceClock
    private var lastSLC: (time: Double, unit: UnitVector)?
    private var visitAnchor: (time: Double, unit: UnitVector, fired: Bool)?
    private var lastPeriodic: Double?
    private let cosSLC: Double
    private let cosVisit: Double
    private let mode: Mode
    private enum Mode { case cushion, overlap, exact }

    init(os: OSModel, seed: UInt64) {
        self.os = os
        rng = SeededRandom(seed: seed)
        clock = FenceClock(os: os)
        cosSLC = UnitVector.cosOf(meters: os.slcMinMeters)
        cosVisit = UnitVector.cosOf(meters: os.visitRadiusMeters)
        mode =
            switch os.detection {
            case .overlap: .overlap
            case .exact: .exact
            case .cushion: .cushion
            }
    }

    var monitoredCount: Int { regions.count }

    private func delay() -> Double {
        let lo = os.detectionDelayMinSeconds
        let hi = os.detectionDelayMaxSeconds
        return hi > lo ? lo + (hi - lo) * Double.random(in: 0..<1, using: &rng) : lo
    }

    private func cushion(_ r: Double) -> Double { mode == .cushion ? min(os.cushionMeters, os.maxCushionFraction * r) : 0 }

    /// Starts monitoring; false (and nothing monitored) beyond the OS limit, as `monitoringDidFail` does.
    func startMonitoring(_ region: Region, key: String, trigger: Trigger = .entry, now: Double, queue: inout EventQueue) -> Bool {
        guard regions.count < os.maxRegions else { return false }
        let r = region.radiusMeters
        let c = cushion(r)
        var m = Monitored(
            key: key, region: region, trigger: trigger, unit: UnitVector(latitude: region.lat, longitude: region.lon),
            cosRadius: UnitVector.cosOf(meters: r), cosInner: UnitVector.cosOf(meters: r - c), cosOuter: UnitVector.cosOf(meters: r + c))
        // iOS knows the state at its last position and reports only later crossings; Android's initial trigger
        // looks at the next check.
        if !os.initialTriggerEntry, let seen = clock.lastCheckedFix { m.inside = initiallyInside(m, seen) }
        regions.append(m)
        return true
    }

    func stopMonitoring(_ key: String) {
        regions.removeAll { $0.key == key }
    }

    /// `requestStateForRegion`: the OS locates the phone now and answers after its usual delay, with the cushion an
    /// entry would need: inside, outside, or unknown in between.
    func requestState(_ key: String, now: Double, queue: inout EventQueue) {
        guard let i = regions.firstIndex(where: { $0.key == key }), let fix = lastFix else { return }
        let m = regions[i]
        let dot = fix.unit.dot(m.unit)
        let answer: Bool?
        switch mode {
        case .exact: answer = dot >= m.cosRadius
        case .overlap: answer = currentlyInside(m, fix)
        case .cushion: answer = dot >= m.cosInner ? true : dot <= m.cosOuter ? false : nil
        }
        queue.push(now + delay(), .state(regionKey: key, inside: answer))
    }

    /// The state a new region starts in. With a cushion, only a position past it counts as inside: within the
    /// cushion the OS cannot tell, and a later move past it is an entry like any other.
    private func initiallyInside(_ m: Monitored, _ fix: PhoneFix) -> Bool {
        mode == .cushion ? fix.unit.dot(m.unit) >= m.cosInner : currentlyInside(m, fix)
    }

    private func currentlyInside(_ m: Monitored, _ fix: PhoneFix) -> Bool {
        switch mode {
        case .overlap: return overlapShare(m, fix) >= (fix.accuracy > m.region.radiusMeters ? os.entryOverlapCoarseFix : os.entryOverlap)
        default: return fix.unit.dot(m.unit) >= m.cosRadius
        }
    }

    private func overlapShare(_ m: Monitored, _ fix: PhoneFix) -> Double {
        let r = m.region.radiusMeters
        // Beyond radius + accuracy the circles do not meet: no trigonometry needed.
        guard fix.unit.dot(m.unit) >= UnitVector.cosOf(meters: r + fix.accuracy) else { return 0 }
        return smallerCircleOverlapFraction(distance: fix.unit.meters(to: m.unit), accuracy: fix.accuracy, fenceRadius: r)
    }

    /// Sees one trace fix: evaluates the fences when the OS's cadence says so, and returns why the app is woken, if it is.
    func process(_ fix: PhoneFix, queue: inout EventQueue) -> Wake? {
        let t = fix.time
        clock.observe(fix)
        if clock.isDue(t) {
            checkFences(fix, queue: &queue)
            clock.checked(fix, wakeUpBy: nextDeadline())
        }
        defer { lastFix = fix }
        if lastFix == nil {
            lastSLC = (t, fix.unit)
            visitAnchor = (t, fix.unit, false)
            lastPeriodic = t
            return .launch
        }
        if os.wakeOnEveryFix { return .everyFix }
        var wake: Wake?
        if os.significantChange, let s = lastSLC, t - s.time >= os.slcMinSeconds, fix.unit.dot(s.unit) <= cosSLC {
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
        if os.periodicWakeSeconds > 0, let p = lastPeriodic, t - p >= os.periodicWakeSeconds {
            lastPeriodic = t
            wake = wake ?? .periodic
        }
        return wake
    }

    /// The earliest time a pending decision needs another look (the end of a dwell, a loitering delay).
    private func nextDeadline() -> Double? {
        var soonest: Double?
        for m in regions {
            if let since = m.pendingSince { soonest = min(soonest ?? .infinity, since + os.dwellSeconds) }
            if m.trigger == .dwell, m.inside == true, !m.dwellFired, let at = m.enteredAt {
                soonest = min(soonest ?? .infinity, at + os.loiteringDelaySeconds)
            }
        }
        return soonest
    }

    private func checkFences(_ fix: PhoneFix, queue: inout EventQueue) {
        let t = fix.time
        for i in regions.indices {
            guard let inside = regions[i].inside else {
                let now = os.initialTriggerEntry ? currentlyInside(regions[i], fix) : initiallyInside(regions[i], fix)
                regions[i].inside = now
                if now && os.initialTriggerEntry { entered(i, at: t, queue: &queue) }
                continue
            }
            if inside, regions[i].trigger == .dwell, !regions[i].dwellFired, let at = regions[i].enteredAt, t - at >= os.loiteringDelaySeconds {
                regions[i].dwellFired = true
                queue.push(t + delay(), .dwell(regionKey: regions[i].key))
            }
            let crossing: Bool
            let dot = fix.unit.dot(regions[i].unit)
            switch mode {
            case .exact:
                crossing = inside ? dot < regions[i].cosRadius : dot >= regions[i].cosRadius
            case .cushion:
                crossing = inside ? dot <= regions[i].cosOuter : dot >= regions[i].cosInner
            case .overlap:
                let share = overlapShare(regions[i], fix)
                let coarse = fix.accuracy > regions[i].region.radiusMeters
                crossing =
                    inside
                    ? share <= (coarse ? os.exitOverlapCoarseFix : os.exitOverlap)
                    : share >= (coarse ? os.entryOverlapCoarseFix : os.entryOverlap)
            }
            guard crossing else {
                regions[i].pendingSince = nil
                continue
            }
            let since = regions[i].pendingSince ?? t
            regions[i].pendingSince = since
            guard t - since >= os.dwellSeconds else { continue }
            regions[i].inside = !inside
            regions[i].pendingSince = nil
            if inside {
                regions[i].enteredAt = nil
                regions[i].dwellFired = false
                queue.push(t + delay(), .exit(regionKey: regions[i].key))
            } else {
                entered(i, at: t, queue: &queue)
            }
        }
    }

    private func entered(_ i: Int, at t: Double, queue: inout EventQueue) {
        regions[i].enteredAt = t
        regions[i].dwellFired = false
        switch regions[i].trigger {
        case .entry: queue.push(t + delay(), .enter(regionKey: regions[i].key))
        case .dwell:
            if os.loiteringDelaySeconds <= 0 {
                regions[i].dwellFired = true
                queue.push(t + delay(), .dwell(regionKey: regions[i].key))
            }
        }
    }
}
