import Foundation
import Geo

/// The world's countries as Natural Earth draws them at 1:110m (shipped in the binary): which country a point is in,
/// and whether land is near. At that scale a coast is off by up to a few kilometres and small islands are missing,
/// so "near land" takes a margin and callers pair it with `PopulatedPlaces` (`Habitation`).
public final class CountryOutlines: Sendable {
    /// The outlines of the binary, decoded on first use (about a millisecond).
    public static let shared = CountryOutlines(base64: embeddedBase64)

    /// One closed ring of a country, in degrees, with its bounding box.
    struct Ring: Sendable {
        let country: Int
        let longitudes: [Double]
        let latitudes: [Double]
        let minLatitude: Double, maxLatitude: Double, minLongitude: Double, maxLongitude: Double
    }

    /// ISO 3166-1 alpha-3 codes, by country index (`-99`-style codes of the source kept as given).
    public let codes: [String]
    let rings: [Ring]
    public var pointCount: Int { rings.reduce(0) { $0 + $1.longitudes.count } }
    public var ringCount: Int { rings.count }

    init(base64: String) {
        let bytes = [UInt8](Data(base64Encoded: base64) ?? Data())
        var at = 0
        func uint(_ width: Int) -> UInt32 {
            var v: UInt32 = 0
            for k in 0..<width { v |= UInt32(bytes[at + k]) << (8 * k) }
            at += width
            return v
        }
        var codes: [String] = []
        var rings: [Ring] = []
        while at + 5 <= bytes.count {
            codes.append(String(decoding: bytes[at..<(at + 3)], as: UTF8.self))
            at += 3
            let ringCount = Int(uint(2))
            for _ in 0..<ringCount {
                let n = Int(uint(4))
                var lons = [Double](repeating: 0, count: n)
                var lats = lons
                for i in 0..<n {
                    lons[i] = Double(Int32(bitPattern: uint(4))) / 1000
                    lats[i] = Double(Int32(bitPattern: uint(4))) / 1000
                }
                rings.append(
                    Ring(
                        country: codes.count - 1, longitudes: lons, latitudes: lats, minLatitude: lats.min() ?? 0,
                        maxLatitude: lats.max() ?? 0, minLongitude: lons.min() ?? 0, maxLongitude: lons.max() ?? 0))
            }
        }
        self.codes = codes
        self.rings = rings
    }

    /// The ISO A3 code of the country whose outline holds the point, nil at sea (or off the 1:110m coast).
    public func country(latitude: Double, longitude: Double) -> String? {
        var inside: [Int: Bool] = [:]
        for ring in rings where ring.holdsInBox(latitude, longitude) && ring.contains(latitude, longitude) {
            inside[ring.country, default: false].toggle()  // even-odd over a country's rings: holes cancel
        }
        return inside.first { $0.value }.map { codes[$0.key] }
    }

    /// True when the point is inside a country other than those in `excluding`, or within `kilometres` of its outline.
    public func isNearLand(latitude: Double, longitude: Double, withinKilometres kilometres: Double, excluding: Set<String> = []) -> Bool {
        if let code = country(latitude: latitude, longitude: longitude), !excluding.contains(code) { return true }
        let marginLat = kilometres / (Sphere.metersPerDegree / 1000)
        let scale = max(cos(latitude * .pi / 180), 0.01)
        let marginLon = min(180, marginLat / scale)
        for ring in rings where !excluding.contains(codes[ring.country]) {
            guard latitude >= ring.minLatitude - marginLat, latitude <= ring.maxLatitude + marginLat,
                longitude >= ring.minLongitude - marginLon, longitude <= ring.maxLongitude + marginLon
            else { continue }
            if ring.distanceDegrees(latitude, longitude, lonScale: scale) <= marginLat { return true }
        }
        return false
    }
}

extension CountryOutlines.Ring {
    func holdsInBox(_ lat: Double, _ lon: Double) -> Bool {
        lat >= minLatitude && lat <= maxLatitude && lon >= minLongitude && lon <= maxLongitude
    }

    /// Even-odd ray casting, longitude as x.
    func contains(_ lat: Double, _ lon: Double) -> Bool {
        var inside = false
        var j = longitudes.count - 1
        for i in longitudes.indices {
            let (xi, yi, xj, yj) = (longitudes[i], latitudes[i], longitudes[j], latitudes[j])
            if (yi > lat) != (yj > lat), lon < (xj - xi) * (lat - yi) / (yj - yi) + xi { inside.toggle() }
            j = i
        }
        return inside
    }

    /// The distance from the point to the ring's nearest edge, in degrees of latitude, on a plane whose longitudes
    /// are shrunk by `lonScale` (the cosine of the point's latitude): good to a few per cent within tens of kilometres.
    func distanceDegrees(_ lat: Double, _ lon: Double, lonScale: Double) -> Double {
        var best = Double.infinity
        var j = longitudes.count - 1
        for i in longitudes.indices {
            let ax = (longitudes[j] - lon) * lonScale
            let ay = latitudes[j] - lat
            let bx = (longitudes[i] - lon) * lonScale
            let by = latitudes[i] - lat
            let dx = bx - ax
            let dy = by - ay
            let length2 = dx * dx + dy * dy
            let t = length2 > 0 ? min(1, max(0, -(ax * dx + ay * dy) / length2)) : 0
            let px = ax + t * dx
            let py = ay + t * dy
            best = min(best, px * px + py * py)
            j = i
        }
        return best.squareRoot()
    }
}
