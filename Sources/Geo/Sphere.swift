#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Great-circle geometry on a sphere of the mean Earth radius (IUGG R1).
public enum Sphere {
    /// Mean Earth radius in metres (IUGG R1 = (2a + b) / 3 for WGS84).
    public static let earthRadiusMeters = 6_371_008.8
    /// Metres in one degree of a great circle (a degree of latitude, or of longitude at the equator): about 111,195.08.
    /// Every metres-to-degrees step in OnCue uses it, so that boxes, grids and jitter agree with the distances.
    public static let metersPerDegree = earthRadiusMeters * .pi / 180

    @inlinable static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    @inlinable static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }

    /// The haversine term `sin²(Δφ/2) + cos φ1 cos φ2 sin²(Δλ/2)`, which grows monotonically with distance;
    /// comparing these avoids the square root and arcsine on hot paths.
    @inlinable
    public static func haversineTerm(_ a: Coordinate, _ b: Coordinate) -> Double {
        haversineTerm(lat1: a.latitude, lon1: a.longitude, lat2: b.latitude, lon2: b.longitude)
    }

    @inlinable
    public static func haversineTerm(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        let dLat = radians(lat2 - lat1)
        let dLon = radians(lon2 - lon1)
        let s1 = sin(dLat / 2)
        let s2 = sin(dLon / 2)
        let h = s1 * s1 + cos(radians(lat1)) * cos(radians(lat2)) * s2 * s2
        return min(max(h, 0), 1)
    }

    /// Converts a haversine term to metres.
    @inlinable
    public static func meters(fromHaversineTerm h: Double) -> Double {
        2 * earthRadiusMeters * asin(min(1, sqrt(max(0, h))))
    }

    /// The haversine term of a distance in metres (inverse of `meters(fromHaversineTerm:)`).
    @inlinable
    public static func haversineTerm(meters: Double) -> Double {
        let angle = min(max(meters, 0) / earthRadiusMeters, .pi)
        let s = sin(angle / 2)
        return s * s
    }

    /// Great-circle distance in metres (haversine formula).
    @inlinable
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        meters(fromHaversineTerm: haversineTerm(a, b))
    }

    @inlinable
    public static func distance(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        meters(fromHaversineTerm: haversineTerm(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2))
    }

    /// Initial bearing from `a` towards `b` in degrees clockwise from north, in [0, 360).
    public static func initialBearing(from a: Coordinate, to b: Coordinate) -> Double {
        let phi1 = radians(a.latitude)
        let phi2 = radians(b.latitude)
        let dLon = radians(b.longitude - a.longitude)
        let y = sin(dLon) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dLon)
        let bearing = degrees(atan2(y, x))
        let normalized = bearing.truncatingRemainder(dividingBy: 360)
        return normalized < 0 ? normalized + 360 : (normalized == 360 ? 0 : normalized)
    }

    /// The point reached by travelling `meters` along the great circle starting at `start` with `bearing`.
    public static func destination(from start: Coordinate, meters: Double, bearing: Double) -> Coordinate {
        let delta = meters / earthRadiusMeters
        let theta = radians(bearing)
        let phi1 = radians(start.latitude)
        let lambda1 = radians(start.longitude)
        let sinPhi2 = sin(phi1) * cos(delta) + cos(phi1) * sin(delta) * cos(theta)
        let phi2 = asin(min(1, max(-1, sinPhi2)))
        let y = sin(theta) * sin(delta) * cos(phi1)
        let x = cos(delta) - sin(phi1) * sinPhi2
        let lambda2 = lambda1 + atan2(y, x)
        return Coordinate(
            uncheckedLatitude: min(90, max(-90, degrees(phi2))),
            longitude: normalizeLongitude(degrees(lambda2)))
    }

    /// Wraps any finite longitude into [-180, 180].
    public static func normalizeLongitude(_ lon: Double) -> Double {
        if lon >= -180 && lon <= 180 { return lon }
        var l = (lon + 180).truncatingRemainder(dividingBy: 360)
        if l < 0 { l += 360 }
        return l - 180
    }
}
