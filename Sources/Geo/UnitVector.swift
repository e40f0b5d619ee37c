#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A point on the unit sphere. The squared chord between two points (or their dot product) is a cheap, monotonic
/// stand-in for their great-circle distance, so hot paths compare those against precomputed bounds instead of
/// running a haversine per point: the selection's k-d tree and the replay's fence checks both work this way.
public struct UnitVector: Sendable, Hashable {
    public var x: Double, y: Double, z: Double

    @inlinable @inline(__always)
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The unit vector pointing along (x, y, z): a weighted sum of nearby unit vectors, or a point on the chord
    /// between two, put back on the sphere.
    @inlinable @inline(__always)
    public init(normalizing x: Double, _ y: Double, _ z: Double) {
        let n = (x * x + y * y + z * z).squareRoot()
        self.init(x: x / n, y: y / n, z: z / n)
    }

    @inlinable @inline(__always)
    public init(latitude: Double, longitude: Double) {
        let phi = latitude * .pi / 180
        let lambda = longitude * .pi / 180
        let c = cos(phi)
        self.init(x: c * cos(lambda), y: c * sin(lambda), z: sin(phi))
    }

    @inlinable @inline(__always)
    public init(_ coordinate: Coordinate) {
        self.init(latitude: coordinate.latitude, longitude: coordinate.longitude)
    }

    @inlinable @inline(__always)
    public func dot(_ o: UnitVector) -> Double { x * o.x + y * o.y + z * o.z }

    /// The squared straight-line (chord) distance to `o`.
    @inlinable @inline(__always)
    public func chordSquared(to o: UnitVector) -> Double {
        let dx = x - o.x
        let dy = y - o.y
        let dz = z - o.z
        return dx * dx + dy * dy + dz * dz
    }

    /// Great-circle metres to `o`, exact at every distance (off the hot paths).
    @inlinable
    public func meters(to o: UnitVector) -> Double {
        // atan2 of |cross| and dot is accurate at every distance, unlike acos near 0 or π.
        let cx = y * o.z - z * o.y
        let cy = z * o.x - x * o.z
        let cz = x * o.y - y * o.x
        return atan2((cx * cx + cy * cy + cz * cz).squareRoot(), dot(o)) * Sphere.earthRadiusMeters
    }

    /// cos of the central angle of `meters`: `a.dot(b) ≥ cosOf(meters: r)` ⇔ a and b are within r metres.
    @inlinable
    public static func cosOf(meters: Double) -> Double {
        let angle = meters / Sphere.earthRadiusMeters
        return angle >= .pi ? -1 : angle <= 0 ? 1 : cos(angle)
    }

    /// Squared chord length of a great-circle distance in metres (capped at the antipode), rounded up by a few ulps:
    /// every caller uses it as a bound that must not exclude a point at that distance.
    @inlinable @inline(__always)
    public static func chordSquared(meters: Double) -> Double {
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
    @inlinable @inline(__always)
    public static func meters(chordSquared c2: Double) -> Double {
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
