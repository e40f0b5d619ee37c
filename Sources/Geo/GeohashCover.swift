#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The geohash cells, all of one precision, that together contain every point of a circle.
///
/// The precision is the finest one at which the circle's bounding box needs at most
/// `maxCells` cells; cells whose nearest point is provably farther than the radius are
/// dropped. Correct across the antimeridian (the box is split), at the poles (a cap that
/// contains a pole takes every longitude) and for radii up to half the Earth.
public struct GeohashCover: Sendable, Equatable {
    public let center: Coordinate
    public let radiusMeters: Double
    public let precision: Int
    /// Cells in geohash (Z-order) order, without duplicates.
    public let cells: [Geohash]

    public static let defaultMaxCells = 32

    public init(center: Coordinate, radiusMeters: Double, maxCells: Int = defaultMaxCells) {
        let bounds = CircleBounds(center: center, radiusMeters: radiusMeters)
        var chosen = 1
        for p in stride(from: Geohash.maxPrecision, through: 1, by: -1)
        where Self.cellCount(bounds, precision: p) <= UInt64(max(1, maxCells)) {
            chosen = p
            break
        }
        self.init(center: center, radiusMeters: radiusMeters, precision: chosen, bounds: bounds)
    }

    public init(center: Coordinate, radiusMeters: Double, precision: Int) {
        self.init(
            center: center, radiusMeters: radiusMeters, precision: precision,
            bounds: CircleBounds(center: center, radiusMeters: radiusMeters))
    }

    private init(center: Coordinate, radiusMeters: Double, precision: Int, bounds: CircleBounds) {
        self.center = center
        self.radiusMeters = radiusMeters
        self.precision = precision
        let limit = Sphere.haversineTerm(meters: radiusMeters)
        var found: [Geohash] = []
        // One box yields distinct cells; only the two halves of a box split at the antimeridian can share one.
        var seen = bounds.boxes.count > 1 ? Set<UInt64>() : nil
        for box in bounds.boxes {
            let rows = Self.indexRange(box.minLatitude, box.maxLatitude, min: -90, span: 180, bits: Geohash.latBits(precision))
            let cols = Self.indexRange(box.minLongitude, box.maxLongitude, min: -180, span: 360, bits: Geohash.lonBits(precision))
            for row in rows {
                for col in cols {
                    let cell = Geohash(precision: precision, lonIndex: col, latIndex: row)
                    guard Self.lowerBoundTerm(from: center, to: cell.box) <= limit * (1 + 1e-9) + 1e-15 else { continue }
                    if seen?.insert(cell.interleaved).inserted ?? true { found.append(cell) }
                }
            }
        }
        found.sort { $0.interleaved < $1.interleaved }
        self.cells = found
    }

    /// Whether a point's cell at this cover's precision is one of the cover's cells.
    public func contains(_ c: Coordinate) -> Bool {
        let cell = Geohash(c, precision: precision).interleaved
        var lo = 0
        var hi = cells.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if cells[mid].interleaved < cell { lo = mid + 1 } else { hi = mid }
        }
        return lo < cells.count && cells[lo].interleaved == cell
    }

    /// Half-open string ranges `[lower, upper)` over precision-12 geohash strings, one per run of
    /// consecutive cells, for B-tree range scans (`geohash >= lower AND geohash < upper`).
    public var stringRanges: [(lower: String, upper: String)] {
        integerRanges.map { range in
            let first = Geohash(precision: precision, interleaved: range.lowerBound).string
            // "{" sorts right after "z".
            let upper = Geohash(precision: precision, interleaved: range.upperBound - 1).string(suffix: UInt8(ascii: "{"))
            return (first, upper)
        }
    }

    /// Runs of consecutive cells as half-open ranges of interleaved cell numbers at `precision`.
    public var integerRanges: [Range<UInt64>] {
        var ranges: [Range<UInt64>] = []
        for cell in cells {
            let v = cell.interleaved
            if let last = ranges.last, last.upperBound == v {
                ranges[ranges.count - 1] = last.lowerBound..<(v + 1)
            } else {
                ranges.append(v..<(v + 1))
            }
        }
        return ranges
    }

    static func cellCount(_ bounds: CircleBounds, precision: Int) -> UInt64 {
        var total: UInt64 = 0
        for box in bounds.boxes {
            let rows = indexRange(box.minLatitude, box.maxLatitude, min: -90, span: 180, bits: Geohash.latBits(precision))
            let cols = indexRange(box.minLongitude, box.maxLongitude, min: -180, span: 360, bits: Geohash.lonBits(precision))
            total += UInt64(rows.count) * UInt64(cols.count)
        }
        return total
    }

    static func indexRange(_ lo: Double, _ hi: Double, min: Double, span: Double, bits: Int) -> ClosedRange<UInt64> {
        let a = Geohash.quantize(Swift.max(min, lo), min: min, span: span, bits: bits)
        let b = Geohash.quantize(Swift.min(min + span, hi), min: min, span: span, bits: bits)
        return a...b
    }

    /// A lower bound of the haversine term between `p` and any point of `box`:
    /// hav θ ≥ hav(Δφ_min) + cos φ_p · min(cos φ over the box) · hav(Δλ_min).
    static func lowerBoundTerm(from p: Coordinate, to box: GeoBox) -> Double {
        let latGap: Double
        if p.latitude < box.minLatitude {
            latGap = box.minLatitude - p.latitude
        } else if p.latitude > box.maxLatitude {
            latGap = p.latitude - box.maxLatitude
        } else {
            latGap = 0
        }
        let lonGap = longitudeGap(p.longitude, box.minLongitude, box.maxLongitude)
        let sLat = sin(latGap * .pi / 360)
        if lonGap == 0 { return sLat * sLat }
        let sLon = sin(lonGap * .pi / 360)
        let cosMin = Swift.max(0, Swift.min(cos(box.minLatitude * .pi / 180), cos(box.maxLatitude * .pi / 180)))
        return sLat * sLat + cos(p.latitude * .pi / 180) * cosMin * sLon * sLon
    }

    /// Smallest longitude difference in degrees (0...180) between `lon` and the interval [lo, hi], with wrapping.
    static func longitudeGap(_ lon: Double, _ lo: Double, _ hi: Double) -> Double {
        if lon >= lo && lon <= hi { return 0 }
        func wrapped(_ d: Double) -> Double {
            let m = abs(d).truncatingRemainder(dividingBy: 360)
            return m > 180 ? 360 - m : m
        }
        return Swift.min(wrapped(lon - lo), wrapped(lon - hi))
    }
}
