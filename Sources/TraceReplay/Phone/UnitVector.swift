import Foundation

/// A point on the unit sphere. Comparing dot products against precomputed cosines replaces a haversine
/// per fix and region on the hot path (the replay evaluates every monitored region at every fix).
struct Unit: Sendable, Hashable {
    var x: Double, y: Double, z: Double

    init(latitude: Double, longitude: Double) {
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        let c = cos(phi)
        x = c * cos(lambda); y = c * sin(lambda); z = sin(phi)
    }

    @inline(__always) func dot(_ o: Unit) -> Double { x * o.x + y * o.y + z * o.z }

    /// Great-circle metres to `o` (exact; used off the hot path).
    func meters(to o: Unit) -> Double {
        // atan2 of |cross| and dot is accurate at every distance, unlike acos near 0.
        let cx = y * o.z - z * o.y, cy = z * o.x - x * o.z, cz = x * o.y - y * o.x
        return atan2((cx * cx + cy * cy + cz * cz).squareRoot(), dot(o)) * 6_371_008.8
    }

    /// cos of the central angle of `meters`: `dot ≥ cosOf(r)` ⇔ within r metres.
    static func cosOf(meters: Double) -> Double {
        let angle = meters / 6_371_008.8
        return angle >= .pi ? -1 : angle <= 0 ? 1 : cos(angle)
    }
}
