#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A latitude/longitude rectangle; `minLongitude <= maxLongitude` always (wrapping boxes are split).
public struct GeoBox: Hashable, Sendable {
    public var minLatitude: Double
    public var maxLatitude: Double
    public var minLongitude: Double
    public var maxLongitude: Double

    public init(minLatitude: Double, maxLatitude: Double, minLongitude: Double, maxLongitude: Double) {
        self.minLatitude = minLatitude
        self.maxLatitude = maxLatitude
        self.minLongitude = minLongitude
        self.maxLongitude = maxLongitude
    }

    public func contains(_ c: Coordinate) -> Bool {
        c.latitude >= minLatitude && c.latitude <= maxLatitude
            && c.longitude >= minLongitude && c.longitude <= maxLongitude
    }
}

/// The latitude/longitude extent of a spherical circle ("cap").
///
/// One box normally; two when the circle crosses the antimeridian; a full band of
/// longitudes when the circle contains a pole.
public struct CircleBounds: Sendable, Equatable {
    public let boxes: [GeoBox]
    /// True when the circle contains a pole, so every longitude is inside the bounds.
    public let coversAllLongitudes: Bool

    public init(center: Coordinate, radiusMeters: Double) {
        let r = max(0, radiusMeters) / Sphere.earthRadiusMeters  // angular radius
        let lat = center.latitude * .pi / 180
        let minLat = lat - r
        let maxLat = lat + r
        if r >= .pi {
            boxes = [GeoBox(minLatitude: -90, maxLatitude: 90, minLongitude: -180, maxLongitude: 180)]
            coversAllLongitudes = true
            return
        }
        if minLat <= -.pi / 2 || maxLat >= .pi / 2 {
            // The cap contains a pole: all longitudes, latitude clamped at that pole.
            boxes = [
                GeoBox(
                    minLatitude: max(-90, minLat * 180 / .pi), maxLatitude: min(90, maxLat * 180 / .pi),
                    minLongitude: -180, maxLongitude: 180)
            ]
            coversAllLongitudes = true
            return
        }
        // Largest longitude offset reached by the cap (at the tangent latitude).
        let dLon = asin(min(1, sin(r) / cos(lat))) * 180 / .pi
        let lo = center.longitude - dLon
        let hi = center.longitude + dLon
        let minLatDeg = minLat * 180 / .pi
        let maxLatDeg = maxLat * 180 / .pi
        if dLon >= 180 || hi - lo >= 360 {
            boxes = [GeoBox(minLatitude: minLatDeg, maxLatitude: maxLatDeg, minLongitude: -180, maxLongitude: 180)]
            coversAllLongitudes = true
        } else if lo < -180 {
            boxes = [
                GeoBox(minLatitude: minLatDeg, maxLatitude: maxLatDeg, minLongitude: lo + 360, maxLongitude: 180),
                GeoBox(minLatitude: minLatDeg, maxLatitude: maxLatDeg, minLongitude: -180, maxLongitude: hi),
            ]
            coversAllLongitudes = false
        } else if hi > 180 {
            boxes = [
                GeoBox(minLatitude: minLatDeg, maxLatitude: maxLatDeg, minLongitude: lo, maxLongitude: 180),
                GeoBox(minLatitude: minLatDeg, maxLatitude: maxLatDeg, minLongitude: -180, maxLongitude: hi - 360),
            ]
            coversAllLongitudes = false
        } else {
            boxes = [GeoBox(minLatitude: minLatDeg, maxLatitude: maxLatDeg, minLongitude: lo, maxLongitude: hi)]
            coversAllLongitudes = false
        }
    }

    public func contains(_ c: Coordinate) -> Bool { boxes.contains { $0.contains(c) } }
}
