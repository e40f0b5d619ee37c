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

    /// Squared chord length of a great-circle distance in metres (capped at the antipode).
    @inline(__always)
    static func chordSquared(meters: Double) -> Double {
        if meters <= 0 { return 0 }
        let half = min(meters / Sphere.earthRadiusMeters, .pi) / 2
        let s = sin(half)
        return 4 * s * s
    }

    /// Great-circle metres of a squared chord length.
    @inline(__always)
    static func meters(chordSquared c2: Double) -> Double {
        2 * Sphere.earthRadiusMeters * asin(min(1, max(0, c2).squareRoot() / 2))
    }
}
