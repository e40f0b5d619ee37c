import Geo

/// Whether the person walks or stands, as the phone's motion sensor tells it (`+motion`): iOS's `CMMotionActivity`
/// and Android's Activity Recognition read it from the accelerometer at next to no power, a little late.
///
/// The replay reads it off the true path (the noiseless path where the scenario has one, else the trace): the person
/// walks at `t` when their mean position over the last 10 s lies more than 15 m (0.5 m/s) from their mean position
/// 30 s earlier. Means, not single fixes, so that a recorded trace's scatter during a stay does not read as walking;
/// the sensor counts steps, so even a slow walk is walking. Over a recording gap nothing is known, and the sensor is
/// taken to say "still" (so GPS decides, as without `+motion`).
struct MotionTimeline: Sendable {
    static let spanSeconds = 30.0
    static let meanSeconds = 10.0
    static let walkingMetersPerSecond = 0.5

    private struct Segment: Sendable {
        var times: [Double]
        var positions: [UnitVector]
    }

    private let segments: [Segment]

    init(_ truth: Trace) {
        segments = truth.segments.map { fixes in
            Segment(times: fixes.map(\.time), positions: fixes.map { UnitVector(latitude: $0.latitude, longitude: $0.longitude) })
        }
    }

    /// What the sensor reports at `time`, `latency` seconds behind the person.
    func isWalking(at time: Double, latency: Double) -> Bool {
        let t = time - latency
        let earliest = t - Self.spanSeconds - Self.meanSeconds
        guard let s = segments.first(where: { $0.times.first! <= earliest && t <= $0.times.last! }),
            let now = Self.mean(s, from: t - Self.meanSeconds, to: t),
            let before = Self.mean(s, from: earliest, to: t - Self.spanSeconds)
        else { return false }
        return now.meters(to: before) > Self.spanSeconds * Self.walkingMetersPerSecond
    }

    /// The mean of the path's fixes within `from...to`, or its position at the middle when no fix falls inside.
    private static func mean(_ s: Segment, from: Double, to: Double) -> UnitVector? {
        let first = index(s, atOrAfter: from)
        var x = 0.0
        var y = 0.0
        var z = 0.0
        var i = first
        while i < s.times.count && s.times[i] <= to {
            x += s.positions[i].x
            y += s.positions[i].y
            z += s.positions[i].z
            i += 1
        }
        guard i > first else { return position(s, at: (from + to) / 2) }
        return UnitVector(normalizing: x, y, z)
    }

    /// The first fix at or after `t`.
    private static func index(_ s: Segment, atOrAfter t: Double) -> Int {
        var lo = 0
        var hi = s.times.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if s.times[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The path's position at `t`, between the fixes either side of it.
    private static func position(_ s: Segment, at t: Double) -> UnitVector? {
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
