/// Geohash cells (base-32, Niemeyer 2008) of precision 1...12.
///
/// A geohash of precision `p` interleaves `5p` bits: longitude bits at even positions
/// (starting with the most significant), latitude bits at odd positions. Cells are
/// half-open `[min, max)` except at the top edges, where 90° and 180° belong to the
/// last cell, so `encode(90, 180)` is `zzzz…`.
public struct Geohash: Hashable, Sendable, Comparable, CustomStringConvertible {
    public static let maxPrecision = 12
    static let alphabet: [UInt8] = Array("0123456789bcdefghjkmnpqrstuvwxyz".utf8)
    static let decodeTable: [Int8] = {
        var table = [Int8](repeating: -1, count: 128)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = Int8(i) }
        // Geohash is case-insensitive on input.
        for (i, c) in alphabet.enumerated() where c >= UInt8(ascii: "a") { table[Int(c) - 32] = Int8(i) }
        return table
    }()

    /// The cell in integer form: column (longitude index) and row (latitude index) at `precision`.
    public let precision: Int
    public let lonIndex: UInt64
    public let latIndex: UInt64

    public static func lonBits(_ precision: Int) -> Int { (5 * precision + 1) / 2 }
    public static func latBits(_ precision: Int) -> Int { (5 * precision) / 2 }

    /// Number of columns (longitude) and rows (latitude) at a precision.
    public static func columns(_ precision: Int) -> UInt64 { 1 << UInt64(lonBits(precision)) }
    public static func rows(_ precision: Int) -> UInt64 { 1 << UInt64(latBits(precision)) }

    /// Cell width in degrees of longitude and height in degrees of latitude.
    public static func cellWidth(_ precision: Int) -> Double { 360.0 / Double(columns(precision)) }
    public static func cellHeight(_ precision: Int) -> Double { 180.0 / Double(rows(precision)) }

    public init(precision: Int, lonIndex: UInt64, latIndex: UInt64) {
        precondition((1...Self.maxPrecision).contains(precision), "geohash precision must be 1...12")
        precondition(lonIndex < Self.columns(precision) && latIndex < Self.rows(precision), "cell index out of range")
        self.precision = precision
        self.lonIndex = lonIndex
        self.latIndex = latIndex
    }

    /// The cell containing `coordinate` at `precision` (1...12).
    public init(_ coordinate: Coordinate, precision: Int) {
        self.init(latitude: coordinate.latitude, longitude: coordinate.longitude, precision: precision)
    }

    /// As `init(_:precision:)` for raw degrees that the caller has validated.
    public init(latitude: Double, longitude: Double, precision: Int) {
        precondition((1...Self.maxPrecision).contains(precision), "geohash precision must be 1...12")
        self.precision = precision
        self.lonIndex = Self.quantize(longitude, min: -180, span: 360, bits: Self.lonBits(precision))
        self.latIndex = Self.quantize(latitude, min: -90, span: 180, bits: Self.latBits(precision))
    }

    /// Parses a geohash string (case-insensitive); nil for an empty, too long or invalid string.
    public init?(_ string: some StringProtocol) {
        let utf8 = Array(string.utf8)
        guard (1...Self.maxPrecision).contains(utf8.count) else { return nil }
        var bits: UInt64 = 0
        for c in utf8 {
            guard c < 128, case let v = Self.decodeTable[Int(c)], v >= 0 else { return nil }
            bits = bits << 5 | UInt64(v)
        }
        self.init(precision: utf8.count, interleaved: bits)
    }

    /// Builds a cell from its `5 * precision` interleaved bits.
    public init(precision: Int, interleaved bits: UInt64) {
        let total = 5 * precision
        var lon: UInt64 = 0
        var lat: UInt64 = 0
        for i in 0..<total {
            let bit = (bits >> UInt64(total - 1 - i)) & 1
            if i & 1 == 0 { lon = lon << 1 | bit } else { lat = lat << 1 | bit }
        }
        self.init(precision: precision, lonIndex: lon, latIndex: lat)
    }

    /// The `5 * precision` interleaved bits (longitude first).
    public var interleaved: UInt64 {
        let total = 5 * precision
        var bits: UInt64 = 0
        var lonShift = Self.lonBits(precision)
        var latShift = Self.latBits(precision)
        for i in 0..<total {
            if i & 1 == 0 {
                lonShift -= 1
                bits = bits << 1 | (lonIndex >> UInt64(lonShift)) & 1
            } else {
                latShift -= 1
                bits = bits << 1 | (latIndex >> UInt64(latShift)) & 1
            }
        }
        return bits
    }

    /// Index of `value` among `2^bits` equal slices of `[min, min + span]`, identical to the
    /// classic bisection with `value >= mid` (the slice edges are exact binary fractions, so the
    /// product estimate is corrected against them exactly).
    @inlinable
    static func quantize(_ value: Double, min: Double, span: Double, bits: Int) -> UInt64 {
        let count = UInt64(1) << UInt64(bits)
        let width = span / Double(count)
        var index = UInt64(Swift.max(0, Swift.min(Double(count - 1), ((value - min) / width).rounded(.down))))
        // Exact correction: edges min + k * width are representable, so these comparisons decide the bisection.
        while index > 0 && value < min + Double(index) * width { index -= 1 }
        while index + 1 < count && value >= min + Double(index + 1) * width { index += 1 }
        return index
    }

    public var string: String { string(suffix: nil) }

    /// The geohash followed by one ASCII byte, written straight into the string's storage: at 12 characters
    /// or fewer it is a small string with no allocation (an import formats one or more per row).
    public func string(suffix: UInt8?) -> String {
        let bits = interleaved
        let count = precision
        return String(unsafeUninitializedCapacity: count + 1) { chars in
            var rest = bits
            for i in stride(from: count - 1, through: 0, by: -1) {
                chars[i] = Self.alphabet[Int(rest & 31)]
                rest >>= 5
            }
            guard let suffix else { return count }
            chars[count] = suffix
            return count + 1
        }
    }

    public var description: String { string }

    /// The cell's extent. Latitude rows are `[minLatitude, maxLatitude)`, longitude columns `[minLongitude, maxLongitude)`.
    public var box: GeoBox {
        let w = Self.cellWidth(precision)
        let h = Self.cellHeight(precision)
        let minLon = -180 + Double(lonIndex) * w
        let minLat = -90 + Double(latIndex) * h
        return GeoBox(minLatitude: minLat, maxLatitude: minLat + h, minLongitude: minLon, maxLongitude: minLon + w)
    }

    /// The centre of the cell.
    public var center: Coordinate {
        let b = box
        return Coordinate(
            uncheckedLatitude: (b.minLatitude + b.maxLatitude) / 2,
            longitude: (b.minLongitude + b.maxLongitude) / 2)
    }

    /// The adjacent cell in a direction; longitude wraps at the antimeridian, latitude does not wrap over a pole (nil).
    public func neighbor(_ direction: Direction) -> Geohash? {
        let columns = Self.columns(precision)
        let rows = Self.rows(precision)
        var lat = Int64(latIndex)
        var lon = Int64(lonIndex)
        lat += Int64(direction.rowStep)
        lon += Int64(direction.columnStep)
        guard lat >= 0 && lat < Int64(rows) else { return nil }
        lon = (lon % Int64(columns) + Int64(columns)) % Int64(columns)
        return Geohash(precision: precision, lonIndex: UInt64(lon), latIndex: UInt64(lat))
    }

    /// The up-to-8 cells around this one, keyed by direction (fewer in the top and bottom rows).
    public var neighbors: [Direction: Geohash] {
        var result: [Direction: Geohash] = [:]
        for d in Direction.allCases { if let n = neighbor(d) { result[d] = n } }
        return result
    }

    public enum Direction: CaseIterable, Sendable, Hashable {
        case north, northEast, east, southEast, south, southWest, west, northWest
        var rowStep: Int {
            switch self {
            case .north, .northEast, .northWest: 1
            case .south, .southEast, .southWest: -1
            case .east, .west: 0
            }
        }
        var columnStep: Int {
            switch self {
            case .east, .northEast, .southEast: 1
            case .west, .northWest, .southWest: -1
            case .north, .south: 0
            }
        }
    }

    /// Geohash strings sort like their cells' position on the Z-order curve.
    public static func < (a: Geohash, b: Geohash) -> Bool { a.string < b.string }
}

extension Geohash {
    /// Encodes degrees to a geohash string of `precision` characters.
    public static func encode(latitude: Double, longitude: Double, precision: Int) -> String {
        Geohash(latitude: latitude, longitude: longitude, precision: precision).string
    }
}
