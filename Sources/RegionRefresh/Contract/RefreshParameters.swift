import Foundation
import Geo

/// A region-refresh request after validation: every field present, in range, with defaults applied.
public struct RefreshParameters: Sendable, Hashable {
    public var center: Coordinate
    public var accuracyMeters: Double?
    public var radiusMeters: Double
    /// Card networks in the order given, without duplicates.
    public var cardNetworks: [String]
    public var maxRegions: Int
    public var networkVisits: [String: Int]
    /// Hour of day (0...23) in the phone's local time, when `local_time` was given.
    public var localHour: Int?
    public var includeOtherNetworks: Bool
    public var reserveRefreshRegion: Bool
    public var explain: Bool

    public static let defaultRadiusKm = 50.0
    public static let maxRadiusKm = 200.0
    public static let defaultMaxRegions = 20
    public static let maxRegionsLimit = 100
    static let maxNetworks = 1_000
    static let maxNetworkIdLength = 200

    public init(center: Coordinate, accuracyMeters: Double? = nil, radiusMeters: Double = defaultRadiusKm * 1000,
                cardNetworks: [String] = [], maxRegions: Int = defaultMaxRegions, networkVisits: [String: Int] = [:],
                localHour: Int? = nil, includeOtherNetworks: Bool = true, reserveRefreshRegion: Bool = false, explain: Bool = false) {
        self.center = center
        self.accuracyMeters = accuracyMeters
        self.radiusMeters = radiusMeters
        self.cardNetworks = cardNetworks
        self.maxRegions = maxRegions
        self.networkVisits = networkVisits
        self.localHour = localHour
        self.includeOtherNetworks = includeOtherNetworks
        self.reserveRefreshRegion = reserveRefreshRegion
        self.explain = explain
    }
}

extension RegionRefreshRequest {
    /// Checks every field and applies the defaults; the error names the first bad field.
    public func validated() throws(RegionRefreshError) -> RefreshParameters {
        guard lat.isFinite, (-90...90).contains(lat) else { throw .invalidField(field: "lat", reason: "must be a latitude in [-90, 90], got \(lat)") }
        guard lon.isFinite, (-180...180).contains(lon) else { throw .invalidField(field: "lon", reason: "must be a longitude in [-180, 180], got \(lon)") }
        let center = Coordinate(uncheckedLatitude: lat, longitude: lon)
        if let accuracy, !(accuracy.isFinite && accuracy >= 0 && accuracy <= 100_000) {
            throw .invalidField(field: "accuracy", reason: "must be a number of metres in [0, 100000], got \(accuracy)")
        }
        let radiusKm = self.radiusKm ?? RefreshParameters.defaultRadiusKm
        guard radiusKm.isFinite, radiusKm > 0, radiusKm <= RefreshParameters.maxRadiusKm else {
            throw .invalidField(field: "radius_km", reason: "must be in (0, \(Int(RefreshParameters.maxRadiusKm))], got \(radiusKm)")
        }
        let maxRegions = self.maxRegions ?? RefreshParameters.defaultMaxRegions
        guard (1...RefreshParameters.maxRegionsLimit).contains(maxRegions) else {
            throw .invalidField(field: "max_regions", reason: "must be an integer in 1...\(RefreshParameters.maxRegionsLimit), got \(maxRegions)")
        }
        var networks: [String] = []
        var seen = Set<String>()
        let given = userNetworks ?? []
        guard given.count <= RefreshParameters.maxNetworks else {
            throw .invalidField(field: "user_networks", reason: "may list at most \(RefreshParameters.maxNetworks) networks, got \(given.count)")
        }
        for (i, id) in given.enumerated() {
            guard !id.isEmpty, id.utf8.count <= RefreshParameters.maxNetworkIdLength else {
                throw .invalidField(field: "user_networks[\(i)]", reason: "must be a non-empty network id of at most \(RefreshParameters.maxNetworkIdLength) bytes")
            }
            if seen.insert(id).inserted { networks.append(id) }
        }
        let visits = networkVisits ?? [:]
        guard visits.count <= RefreshParameters.maxNetworks else {
            throw .invalidField(field: "network_visits", reason: "may have at most \(RefreshParameters.maxNetworks) entries")
        }
        for (id, count) in visits where count < 0 || id.isEmpty {
            throw .invalidField(field: "network_visits", reason: "counts must be >= 0 and keys non-empty (got \(count) for '\(id)')")
        }
        var hour: Int?
        if let localTime {
            guard let h = LocalTime.hour(of: localTime) else {
                throw .invalidField(field: "local_time", reason: "must be ISO-8601 with a UTC offset, e.g. 2025-11-22T18:30:00-08:00; got '\(localTime.prefix(64))'")
            }
            hour = h
        }
        return RefreshParameters(center: center, accuracyMeters: accuracy, radiusMeters: radiusKm * 1000, cardNetworks: networks,
                                 maxRegions: maxRegions, networkVisits: visits, localHour: hour,
                                 includeOtherNetworks: includeOtherNetworks ?? true,
                                 reserveRefreshRegion: reserveRefreshRegion ?? false, explain: explain ?? false)
    }
}

/// Reads the wall-clock hour from an ISO-8601 timestamp with an offset, as the phone's clock shows it.
enum LocalTime {
    static func hour(of text: String) -> Int? {
        // yyyy-mm-ddThh:mm[:ss[.fff]](Z|±hh:mm): the hour is the phone's own wall-clock hour.
        let u = Array(text.utf8)
        guard u.count >= 17, u.count <= 40, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"),
              u[10] == UInt8(ascii: "T") || u[10] == UInt8(ascii: " "), u[13] == UInt8(ascii: ":") else { return nil }
        func digits(_ range: Range<Int>) -> Int? {
            var v = 0
            for i in range { guard u[i] >= 48 && u[i] <= 57 else { return nil }; v = v * 10 + Int(u[i] - 48) }
            return v
        }
        guard let month = digits(5..<7), (1...12).contains(month), let day = digits(8..<10), (1...31).contains(day),
              digits(0..<4) != nil, let hour = digits(11..<13), hour < 24, let minute = digits(14..<16), minute < 60 else { return nil }
        // There must be an offset: Z or ±hh:mm / ±hhmm at the end.
        let last = u[u.count - 1]
        if last == UInt8(ascii: "Z") || last == UInt8(ascii: "z") { return hour }
        guard u.count >= 22 else { return nil }
        let tail = Array(u.suffix(6))
        if (tail[0] == UInt8(ascii: "+") || tail[0] == UInt8(ascii: "-")) && tail[3] == UInt8(ascii: ":") { return hour }
        let tail5 = Array(u.suffix(5))
        if (tail5[0] == UInt8(ascii: "+") || tail5[0] == UInt8(ascii: "-")) && tail5[1...].allSatisfy({ $0 >= 48 && $0 <= 57 }) { return hour }
        return nil
    }
}
