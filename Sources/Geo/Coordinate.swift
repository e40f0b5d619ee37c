/// A point on the WGS84 sphere in degrees, validated on construction.
///
/// Construction refuses NaN, infinities and values outside latitude [-90, 90] and
/// longitude [-180, 180], so any `Coordinate` that exists is safe to feed to the
/// distance and geohash functions.
public struct Coordinate: Hashable, Sendable, Codable, CustomStringConvertible {
    public let latitude: Double
    public let longitude: Double

    public init(latitude: Double, longitude: Double) throws(CoordinateError) {
        guard latitude.isFinite else { throw .notFinite(field: "latitude") }
        guard longitude.isFinite else { throw .notFinite(field: "longitude") }
        guard (-90.0...90.0).contains(latitude) else { throw .latitudeOutOfRange(latitude) }
        guard (-180.0...180.0).contains(longitude) else { throw .longitudeOutOfRange(longitude) }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// For values already known to be valid (e.g. read back from a store that validated them).
    /// Out-of-range input is a programming error.
    public init(uncheckedLatitude latitude: Double, longitude: Double) {
        precondition(
            latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180,
            "invalid coordinate")
        self.latitude = latitude
        self.longitude = longitude
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let lat = try container.decode(Double.self, forKey: .latitude)
        let lon = try container.decode(Double.self, forKey: .longitude)
        do {
            try self.init(latitude: lat, longitude: lon)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .latitude, in: container, debugDescription: error.description)
        }
    }

    public var description: String { "(\(latitude), \(longitude))" }
}

/// Why a pair of numbers is not a coordinate.
public enum CoordinateError: Error, Equatable, Sendable, CustomStringConvertible {
    case notFinite(field: String)
    case latitudeOutOfRange(Double)
    case longitudeOutOfRange(Double)

    public var description: String {
        switch self {
        case .notFinite(let field): "\(field) is not a finite number"
        case .latitudeOutOfRange(let v): "latitude \(v) is outside [-90, 90]"
        case .longitudeOutOfRange(let v): "longitude \(v) is outside [-180, 180]"
        }
    }
}
