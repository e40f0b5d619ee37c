#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The body of `POST /v1/region-refresh`, as in the product document, plus backward-compatible
/// optional fields. JSON keys are snake_case.
public struct RegionRefreshRequest: Codable, Sendable, Hashable {
    public var lat: Double
    public var lon: Double
    /// Horizontal accuracy of the phone's fix in metres.
    public var accuracy: Double?
    /// Search radius, (0, 200] km; default 50.
    public var radiusKm: Double?
    /// Networks the user holds a card for; their locations come first.
    public var userNetworks: [String]?
    /// 1...100; default 20 (the iOS limit).
    public var maxRegions: Int?
    /// Per-network visit counts kept on the phone (a boost within a tier).
    public var networkVisits: [String: Int]?
    /// The phone's local time, ISO-8601 with offset (time-of-day boosts).
    public var localTime: String?
    /// Whether locations of networks without a card fill the remaining slots; default true.
    public var includeOtherNetworks: Bool?
    /// Use one slot for a refresh region centred on the phone whose exit triggers the next refresh.
    public var reserveRefreshRegion: Bool?
    /// Attach the score parts to each region.
    public var explain: Bool?
    /// The smallest region the phone monitors reliably, [0, 1000] m: every region is at least this large before
    /// same-network regions are merged and the refresh distance is computed. Absent: the server's setting.
    public var minRadiusMeters: Double?
    /// Members of the body this version does not know and let through (none a near miss of a field, which is refused:
    /// `FieldNames`), in name order; the server names them in its answer (`ignored_fields`). Not a field itself.
    public var ignoredFields: [String] = []

    /// The body's field names, as JSON writes them.
    public static let fieldNames = CodingKeys.allCases.map(\.rawValue)

    /// A request with the product document's fields; the optional extensions (`networkVisits`, `localTime`, …) are
    /// set on the value afterwards.
    public init(
        lat: Double, lon: Double, accuracy: Double? = nil, radiusKm: Double? = nil, userNetworks: [String]? = nil, maxRegions: Int? = nil
    ) {
        self.lat = lat
        self.lon = lon
        self.accuracy = accuracy
        self.radiusKm = radiusKm
        self.userNetworks = userNetworks
        self.maxRegions = maxRegions
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case lat, lon, accuracy
        case radiusKm = "radius_km"
        case userNetworks = "user_networks"
        case maxRegions = "max_regions"
        case networkVisits = "network_visits"
        case localTime = "local_time"
        case includeOtherNetworks = "include_other_networks"
        case reserveRefreshRegion = "reserve_refresh_region"
        case explain
        case minRadiusMeters = "min_radius_meters"
    }

    /// Decodes field by field so that integers given as fractions (`"max_regions": 2.5`) are refused, not truncated.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        lat = try c.decode(Double.self, forKey: .lat)
        lon = try c.decode(Double.self, forKey: .lon)
        accuracy = try c.decodeIfPresent(Double.self, forKey: .accuracy)
        radiusKm = try c.decodeIfPresent(Double.self, forKey: .radiusKm)
        userNetworks = try c.decodeIfPresent([String].self, forKey: .userNetworks)
        maxRegions = try Self.integer(c.decodeIfPresent(Double.self, forKey: .maxRegions), key: .maxRegions, in: c)
        if c.contains(.networkVisits), try !c.decodeNil(forKey: .networkVisits) {
            // Key by key in sorted order, so that of several bad counts the same one is named every time (a
            // dictionary's iteration order differs from one instance to the next).
            let visits = try c.nestedContainer(keyedBy: NameKey.self, forKey: .networkVisits)
            var counts: [String: Int] = [:]
            for key in visits.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                counts[key.stringValue] = try Self.integer(visits.decode(Double.self, forKey: key), key: .networkVisits, in: c)
            }
            networkVisits = counts
        } else {
            networkVisits = nil
        }
        localTime = try c.decodeIfPresent(String.self, forKey: .localTime)
        includeOtherNetworks = try c.decodeIfPresent(Bool.self, forKey: .includeOtherNetworks)
        reserveRefreshRegion = try c.decodeIfPresent(Bool.self, forKey: .reserveRefreshRegion)
        explain = try c.decodeIfPresent(Bool.self, forKey: .explain)
        minRadiusMeters = try c.decodeIfPresent(Double.self, forKey: .minRadiusMeters)
    }

    private static func integer(_ value: Double?, key: CodingKeys, in c: KeyedDecodingContainer<CodingKeys>) throws -> Int? {
        guard let value else { return nil }
        guard value.isFinite, value.rounded() == value, abs(value) < 1e15 else {
            throw DecodingError.typeMismatch(Int.self, DecodingError.Context(codingPath: c.codingPath + [key], debugDescription: "not an integer"))
        }
        return Int(value)
    }

    /// Any member name of a JSON object (`network_visits` maps network ids to counts).
    private struct NameKey: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}
