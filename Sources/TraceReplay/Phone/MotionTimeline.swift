import Geo

/// Whether the person walks or stands, as the phone's motion sensor tells it (`+motion`): iOS's `CMMotionActivity`
/// and Android's Activity Recognition read it from the accelerometer at next to no power, a little late.
///
/// The replay reads it off the true path (the noiseless path where the scenario has one, else the recorded trace):
/// the person walks at `t` when the median of their positions over the last 30 s lies more than 30 m (0.5 m/s) from
/// the median over the 30 s that ended 60 s earlier. Medians of half a minute, not single fixes or short means,
/// because a standing GPS logger wanders by tens of metres and throws the odd multipath fix; a walk at 1.3 m/s still
/// moves 78 m in those 60 s. The price is time: the sensor says "still" about 50 s after the person stops.
///
/// A recording gap whose ends lie close together is a stay (`GapFill.stays`: the phone's accelerometer sees it
/// whether or not the logger did), so the person stands through it. Anywhere else the sensor's word needs a minute
/// of path behind it: at the start of a recording, and through a gap whose ends lie far apart (a subway, the logger
/// off while moving), it reads "walking" — a cold start is not a stay.
struct MotionTimeline: Sendable {
    static let windowSeconds = 30.0
    static let spanSeconds = 60.0
    static let walkingMetersPerSecond = 0.5
    /// The path a stay gap stands for: one position this often, on the line between the gap's two ends (which lie
    /// within 100 m: a jump there is a standing logger's wander, not a walk).
    static let stayStepSeconds = 10.0

    private struct Stretch: Sendable {
        var times: [Double]
        var positions: [UnitVector]
    }

    private let stretches: [Stretch]

    init(_ truth: Trace) {
        var stays = GapFill.stays(in: truth)[...]
        var out: [Stretch] = []
        var current = Stretch(times: [], positions: [])
        for fix in truth.segments.joined() {
            if let last = current.times.last, fix.time - last > GapFill.minGapSeconds {
                while let stay = stays.first, stay.to < fix.time { stays.removeFirst() }
                if let stay = stays.first, stay.to == fix.time, stay.from == last {
                    let a = current.positions[current.positions.count - 1]
                    let b = UnitVector(latitude: fix.latitude, longitude: fix.longitude)
                    for t in stride(from: last + Self.stayStepSeconds, to: fix.time, by: Self.stayStepSeconds) {
                        let f = (t - last) / (fix.time - last)
                        current.times.append(t)
                        current.positions.append(UnitVector(normalizing: a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, a.z + (b.z - a.z) * f))
                    }
                } else {
                    out.append(current)
                    current = Stretch(times: [], positions: [])
                }
            }
            current.times.append(fix.time)
            current.positions.append(UnitVector(latitude: fix.latitude, longitude: fix.longitude))
        }
        if !current.times.isEmpty { out.append(current) }
        stretches = out
    }

    /// What the sensor reports at `time`, `latency` seconds behind the person.
    func isWalking(at time: Double, latency: Double) -> Bool {
        let t = time - latency
        let earliest = t - Self.spanSeconds - Self.windowSeconds
        guard let s = stretches.first(where: { $0.times.first! <= earliest && t <= $0.times.last! }),
            let now = Self.median(s, from: t - Self.windowSeconds, to: t),
            let before = Self.median(s, from: earliest, to: t - Self.spanSeconds)
        else { return true }
        return now.meters(to: before) > Self.spanSeconds * Self.walkingMetersPerSecond
    }

    /// The coordinate-wise median of the path's fixes within `from...to`, or its position at the middle when no fix
    /// falls inside.
    private static func median(_ s: Stretch, from: Double, to: Double) -> UnitVector? {
        let first = index(s, atOrAfter: from)
        var end = first
        while end < s.times.count && s.times[end] <= to { end += 1 }
        guard end > first else { return position(s, at: (from + to) / 2) }
        let points = s.positions[first..<end]
        func mid(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            let n = sorted.count
            return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        }
        return UnitVector(normalizing: mid(points.map(\.x)), mid(points.map(\.y)), mid(points.map(\.z)))
    }

    /// The first fix at or after `t`.
    private static func index(_ s: Stretch, atOrAfter t: Double) -> Int {
        var lo = 0
        var hi = s.times.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if s.times[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The path's position at `t`, between the fixes either side of it.
    private static func position(_ s: Stretch, at t: Double) -> UnitVector? {
        let hi = index(s, atOrAfter: t)
        guard hi < s.times.count, t >= s.times[0] else { return nil }
        guard hi > 0, s.times[hi] > t else { return s.positions[hi] }
        let lo = hi - 1
        let f = (t - s.times[lo]) / (s.times[hi] - s.times[lo])
        let a = s.positions[lo]
        let b = s.positions[hi]
        return UnitVector(normalizing: a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, a.z + (b.z - a.z) * f)
    }
}
