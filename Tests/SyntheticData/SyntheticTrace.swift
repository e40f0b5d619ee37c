import Geo
import TraceReplay

/// A seeded drive: `count` fixes at 1 Hz and 12 m/s from `start`, turning gently, the same on every machine.
public enum SyntheticTrace {
    public static func drive(start: Coordinate, count: Int, seed: UInt64, name: String) -> Trace {
        var rng = SeededRandom(seed: seed)
        var here = start
        var bearing = Double.random(in: 0..<360, using: &rng)
        var fixes: [TraceFix] = []
        fixes.reserveCapacity(count)
        for i in 0..<count {
            fixes.append(TraceFix(time: 1_700_000_000 + Double(i), latitude: here.latitude, longitude: here.longitude))
            bearing += rng.gaussian() * 3
            let heading = bearing.truncatingRemainder(dividingBy: 360) + (bearing < 0 ? 360 : 0)
            here = Sphere.destination(from: here, meters: 12, bearing: heading)
        }
        var report = TraceReport(file: name, format: "synthetic")
        report.points = count
        return Trace(name: name, segments: [fixes], report: report)
    }
}
