import OnCueContract

/// Tunables and limits of the region-refresh engine. The defaults are the documented behaviour.
public struct EngineConfiguration: Sendable, Hashable {
    /// `refresh_after_meters` is never below this (metres).
    public var refreshFloorMeters: Double
    /// `refresh_after_meters` is never above this (metres): past it the candidate set itself is stale.
    public var refreshCeilingMeters: Double
    /// `cache_ttl_seconds` of every response (6 h, the product document's time threshold).
    public var cacheTTLSeconds: Int
    public var radiusPolicy: RadiusPolicy
    public var boosts: BoostTable
    /// Candidates one tier may rank before the selection answers with the regions it has (and says so): merges can
    /// consume candidates without filling slots, and in a dense cluster (thousands of one network within a few hundred
    /// metres, or piled on one point) they would consume the whole cluster. Bounds a request's work.
    public var candidateBudget: Int
    /// Locations one selection's ranking may look at, over all its searches, before it answers with the best of those
    /// (and says so, `selection_limited`). Ranking reads every location that could tie with the worst kept, and rows
    /// piled on one point all tie: 200,000 of them cost half a second a request. Ordinary requests read far fewer:
    /// over 3,000 random requests each, the shared real chains at most 647 (p99 259), 100,000 synthetic locations in
    /// clusters at most 3,769 (p99 1,643).
    public var visitBudget: Int
    /// A merged region lists at most this many member ids (`merged_location_ids`, the best-ranked ones);
    /// `merged_count` says how many there are.
    public var mergedIdsLimit: Int
    /// Members of one region that later candidates are compared with for merging (the lead and the first ones merged):
    /// keeps each candidate's merge check to a few hundred circles however many join a region.
    public var mergeableCirclesPerRegion: Int
    /// The radius floor of a request that names none (`min_radius_meters`): 0 keeps the radius policy's tiers.
    public var minRadiusMeters: Double
    /// With a request's `local_time`, a store closed for the whole of this many minutes from then ranks after every
    /// open store of its tier (never dropped); 0 ranks without opening hours.
    public var closedLookaheadMinutes: Int

    public init(
        refreshFloorMeters: Double = 100,
        refreshCeilingMeters: Double = 50_000,
        cacheTTLSeconds: Int = 21_600,
        radiusPolicy: RadiusPolicy = .standard,
        boosts: BoostTable = .standard,
        candidateBudget: Int = 2_048,
        visitBudget: Int = 10_000,
        mergedIdsLimit: Int = 50,
        mergeableCirclesPerRegion: Int = 16,
        minRadiusMeters: Double = 0,
        closedLookaheadMinutes: Int = 30
    ) {
        self.refreshFloorMeters = refreshFloorMeters
        self.refreshCeilingMeters = refreshCeilingMeters
        self.cacheTTLSeconds = cacheTTLSeconds
        self.radiusPolicy = radiusPolicy
        self.boosts = boosts
        self.candidateBudget = max(1, candidateBudget)
        self.visitBudget = max(1, visitBudget)
        self.mergedIdsLimit = max(0, mergedIdsLimit)
        self.mergeableCirclesPerRegion = max(1, mergeableCirclesPerRegion)
        self.minRadiusMeters = min(max(0, minRadiusMeters), RefreshParameters.maxMinRadiusMeters)
        self.closedLookaheadMinutes = min(max(0, closedLookaheadMinutes), Self.maxClosedLookaheadMinutes)
    }
}

extension EngineConfiguration {
    /// The longest lookahead for closed stores: a day.
    public static let maxClosedLookaheadMinutes = 1_440

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
