/// Tunables and limits of the region-refresh engine. The defaults are the documented behaviour.
public struct EngineConfiguration: Sendable, Hashable {
    /// `refresh_after_meters` is never below this (metres).
    public var refreshFloorMeters: Double
    /// `refresh_after_meters` is never above this (metres): past it the candidate set itself is stale.
    public var refreshCeilingMeters: Double
    /// `cache_ttl_seconds` of every response (6 h, the product document's time threshold).
    public var cacheTTLSeconds: Int
    /// A fix's accuracy is counted up to this (metres). The guarantee must hold wherever the phone truly is, so every
    /// distance is shortened by the accuracy; past a kilometre a fix says little, and shortening by more would only
    /// make the phone wake up at once.
    public var accuracyCapMeters: Double
    public var radiusPolicy: RadiusPolicy
    public var boosts: BoostTable

    public init(
        refreshFloorMeters: Double = 100,
        refreshCeilingMeters: Double = 50_000,
        cacheTTLSeconds: Int = 21_600,
        accuracyCapMeters: Double = 1_000,
        radiusPolicy: RadiusPolicy = .standard,
        boosts: BoostTable = .standard
    ) {
        self.refreshFloorMeters = refreshFloorMeters
        self.refreshCeilingMeters = refreshCeilingMeters
        self.cacheTTLSeconds = cacheTTLSeconds
        self.accuracyCapMeters = accuracyCapMeters
        self.radiusPolicy = radiusPolicy
        self.boosts = boosts
    }
}

extension EngineConfiguration {
    /// The largest radius a network may give all its locations (metres).
    public static let maximumNetworkRadiusMeters = 50_000.0

    /// The one rule for a network's default radius, kept by `oncue networks set --default-radius-m` and
    /// `PUT /admin/networks/{id}` alike: a finite number of metres in (0, 50000]. 0 is not a radius: a network without
    /// one (its regions sized by the density tiers) has none at all, which JSON spells `null` and the command line `0`.
    public static func isValidNetworkRadius(_ meters: Double) -> Bool {
        meters.isFinite && meters > 0 && meters <= maximumNetworkRadiusMeters
    }

    /// `isValidNetworkRadius` in words, for the messages that refuse a radius.
    public static let networkRadiusRule = "a number of metres in (0, 50000]"
}
