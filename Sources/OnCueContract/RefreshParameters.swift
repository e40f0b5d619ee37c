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
    /// The phone's wall clock, when `local_time` was given: the hour picks time-of-day boosts, the weekday and minute
    /// the opening hours.
    public var localTime: LocalWallClock?
    /// Hour of day (0...23) in the phone's local time.
    public var localHour: Int? { localTime?.hour }
    public var includeOtherNetworks: Bool
    public var reserveRefreshRegion: Bool
    public var explain: Bool
    /// The request's radius floor (metres); nil: the engine's `EngineConfiguration.minRadiusMeters`.
    public var minRadiusMeters: Double?

    public static let defaultRadiusKm = 50.0
    public static let maxRadiusKm = 200.0
    public static let defaultMaxRegions = 20
    public static let maxRegionsLimit = 100
    public static let maxNetworks = 1_000
    /// The largest floor a request may ask for (metres): past a kilometre a floor is no longer a phone's limit.
    public static let maxMinRadiusMeters = 1_000.0
    /// A visit count above this is not a count (the document says so too).
    public static let maxVisits = 1_000_000_000

    public init(
        center: Coordinate, accuracyMeters: Double? = nil, radiusMeters: Double = defaultRadiusKm * 1000,
        cardNetworks: [String] = [], maxRegions: Int = defaultMaxRegions, networkVisits: [String: Int] = [:],
        localTime: LocalWallClock? = nil, includeOtherNetworks: Bool = true, reserveRefreshRegion: Bool = false, explain: Bool = false,
        minRadiusMeters: Double? = nil
    ) {
        self.center = center
        self.accuracyMeters = accuracyMeters
        self.radiusMeters = radiusMeters
        self.cardNetworks = cardNetworks
        self.maxRegions = maxRegions
        self.networkVisits = networkVisits
        self.localTime = localTime
        self.includeOtherNetworks = includeOtherNetworks
        self.reserveRefreshRegion = reserveRefreshRegion
        self.explain = explain
        self.minRadiusMeters = minRadiusMeters
    }
}

extension RefreshParameters {
    /// The one rule for a radius floor, the request's `min_radius_meters` and the server's default alike.
    public static func isValidMinRadius(_ meters: Double) -> Bool { meters.isFinite && meters >= 0 && meters <= maxMinRadiusMeters }

    /// `isValidMinRadius` in words, for the messages that refuse a floor.
    public static let minRadiusRule = "a number of metres in [0, 1000]"
}

extension RegionRefreshRequest {
    /// Checks every field and applies the defaults; the error names the first bad field.
    public func validated() throws(RegionRefreshError) -> RefreshParameters {
        guard lat.isFinite, (-90...90).contains(lat) else { throw .invalidField(field: "lat", reason: "must be a latitude in [-90, 90], got \(lat)") }
        guard lon.isFinite, (-180...180).contains(lon) else {
            throw .invalidField(field: "lon", reason: "must be a longitude in [-180, 180], got \(lon)")
        }
        let center = Coordinate(uncheckedLatitude: lat, longitude: lon)
        if let accuracy, !(accuracy.isFinite && accuracy >= 0 && accuracy <= 100_000) {
            throw .invalidField(field: "accuracy", reason: "must be a number of metres in [0, 100000], got \(accuracy)")
        }
        if let minRadiusMeters, !RefreshParameters.isValidMinRadius(minRadiusMeters) {
            throw .invalidField(field: "min_radius_meters", reason: "must be \(RefreshParameters.minRadiusRule), got \(minRadiusMeters)")
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
            guard !id.isEmpty, !TextLimits.exceeds(id, TextLimits.networkName) else {
                throw .invalidField(
                    field: "user_networks[\(i)]",
                    reason: "must be a non-empty network id, name or alias of at most \(TextLimits.networkName) characters")
            }
            if seen.insert(id).inserted { networks.append(id) }
        }
        let visits = networkVisits ?? [:]
        guard visits.count <= RefreshParameters.maxNetworks else {
            throw .invalidField(field: "network_visits", reason: "may have at most \(RefreshParameters.maxNetworks) entries")
        }
        for (id, count) in visits
        where count < 0 || count > RefreshParameters.maxVisits || id.isEmpty
            || TextLimits.exceeds(id, TextLimits.networkName)
        {
            throw .invalidField(
                field: "network_visits",
                reason: "counts must be in 0...\(RefreshParameters.maxVisits) and keys 1 to "
                    + "\(TextLimits.networkName) characters (got \(count) for '\(id.prefix(64))')")
        }
        var clock: LocalWallClock?
        if let localTime {
            guard let read = LocalWallClock(rfc3339: localTime) else {
                throw .invalidField(field: "local_time", reason: "must be an RFC 3339 date-time with a UTC offset, e.g. 2025-11-22T18:30:00-08:00")
            }
            clock = read
        }
        return RefreshParameters(
            center: center, accuracyMeters: accuracy, radiusMeters: radiusKm * 1000, cardNetworks: networks,
            maxRegions: maxRegions, networkVisits: visits, localTime: clock,
            includeOtherNetworks: includeOtherNetworks ?? true,
            reserveRefreshRegion: reserveRefreshRegion ?? false, explain: explain ?? false,
            minRadiusMeters: minRadiusMeters)
    }
}
