#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geo

/// Points as 3-D unit vectors, where the squared chord between two points is a cheap,
/// monotonic stand-in for their great-circle distance (no trigonometry per comparison).
enum UnitVector {
    @inline(__always)
    static func from(latitude: Double, longitude: Double) -> (x: Double, y: Double, z: Double) {
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        let c = cos(phi)
        return (c * cos(lambda), c * sin(lambda), sin(phi))
    }

    /// Squared chord length of a great-circle distance in metres (capped at the antipode), rounded up by a few ulps:
    /// every caller uses it as a bound that must not exclude a point at that distance.
    @inline(__always)
    static func chordSquared(meters: Double) -> Double {
        if meters <= 0 { return 0 }
        let half = min(meters / Sphere.earthRadiusMeters, .pi) / 2
        // sin's Taylor series to x⁹ is exact to double precision below 0.02 (≈ 250 km): searches tighten their bound
        // with this at every better candidate, and libm's sin was most of that. (Reciprocals, not divisions: four
        // divisions cost more than the rest of a visit.)
        let s: Double
        if half < 0.02 {
            let h2 = half * half
            s = half * (1 - h2 * (1.0 / 6) * (1 - h2 * (1.0 / 20) * (1 - h2 * (1.0 / 42) * (1 - h2 * (1.0 / 72)))))
        } else {
            s = sin(half)
        }
        return 4 * s * s * (1 + 1e-15)
    }

    /// Great-circle metres of a squared chord length.
    @inline(__always)
    static func meters(chordSquared c2: Double) -> Double {
        // libm's sqrt, not `squareRoot()`: that goes through a C shim which LLVM left as a call in the search loop
        // (1.7 % of a selection); sqrt becomes one instruction.
        let x = sqrt(max(0, c2)) / 2
        // asin's Taylor series to x⁷ is within a few ulps of asin below 0.02 (≈ 250 km; it errs low) and much cheaper.
        if x < 0.02 {
            let x2 = x * x
            return 2 * Sphere.earthRadiusMeters * x * (1 + x2 * (1.0 / 6 + x2 * (3.0 / 40 + x2 * (15.0 / 336))))
        }
        return 2 * Sphere.earthRadiusMeters * asin(min(1, x))
    }
}
