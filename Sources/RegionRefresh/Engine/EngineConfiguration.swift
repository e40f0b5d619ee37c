/// Tunables of the region-refresh engine. The defaults are the documented behaviour.
public struct EngineConfiguration: Sendable, Hashable {
    /// `refresh_after_meters` is never below this (metres).
    public var refreshFloorMeters: Double
    /// `refresh_after_meters` is never above this (metres): past it the candidate set itself is stale.
    public var refreshCeilingMeters: Double
    /// `cache_ttl_seconds` of every response (6 h, the product document's time threshold).
    public var cacheTTLSeconds: Int
    public var radiusPolicy: RadiusPolicy
    public var boosts: BoostTable

    public init(refreshFloorMeters: Double = 100, refreshCeilingMeters: Double = 50_000, cacheTTLSeconds: Int = 21_600,
                radiusPolicy: RadiusPolicy = .standard, boosts: BoostTable = .standard) {
        self.refreshFloorMeters = refreshFloorMeters
        self.refreshCeilingMeters = refreshCeilingMeters
        self.cacheTTLSeconds = cacheTTLSeconds
        self.radiusPolicy = radiusPolicy
        self.boosts = boosts
    }
}
