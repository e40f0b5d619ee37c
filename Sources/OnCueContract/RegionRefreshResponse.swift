/// The answer to `POST /v1/region-refresh`: the regions the phone should monitor, and when to ask again.
public struct RegionRefreshResponse: Codable, Sendable, Hashable {
    public var regions: [Region]
    /// Refresh after moving this far from where the request was made (metres, whole).
    public var refreshAfterMeters: Double
    public var cacheTtlSeconds: Int
    /// UTC, ISO-8601, e.g. `2025-11-22T10:30:00Z`.
    public var serverTime: String
    /// True when no unmonitored card-network location can be entered before moving `refresh_after_meters`.
    public var coverageGuaranteed: Bool
    /// Why `coverage_guaranteed` is false (absent when it is true).
    public var coverageReason: CoverageReason?
    /// True (else absent) when the engine stopped at its work budget in a dense cluster and answered with the regions
    /// it had found; `coverage_guaranteed` and `refresh_after_meters` still hold for them.
    public var selectionLimited: Bool?
    /// The `user_networks` that name no network (by id, alias or display name), as sent; absent when all are known.
    public var unknownNetworks: [String]?
    /// Each `user_networks` spelling that names a network, and that network's id (`{"Starbucks": "starbucks"}`), so a
    /// phone can match its wallet to the regions' `network_id`s; absent when none does.
    public var resolvedNetworks: [String: String]?
    /// Members of the request this server does not know and ignored (a newer client's fields), in name order; absent
    /// when there were none. A near miss of a field (`userNetworks`) is refused instead.
    public var ignoredFields: [String]?

    public init(
        regions: [Region], refreshAfterMeters: Double, cacheTtlSeconds: Int, serverTime: String, coverageGuaranteed: Bool,
        coverageReason: CoverageReason? = nil, selectionLimited: Bool? = nil, unknownNetworks: [String]? = nil,
        resolvedNetworks: [String: String]? = nil
    ) {
        self.regions = regions
        self.refreshAfterMeters = refreshAfterMeters
        self.cacheTtlSeconds = cacheTtlSeconds
        self.serverTime = serverTime
        self.coverageGuaranteed = coverageGuaranteed
        self.coverageReason = coverageReason
        self.selectionLimited = selectionLimited
        self.unknownNetworks = unknownNetworks
        self.resolvedNetworks = resolvedNetworks
    }

    enum CodingKeys: String, CodingKey {
        case regions
        case refreshAfterMeters = "refresh_after_meters"
        case cacheTtlSeconds = "cache_ttl_seconds"
        case serverTime = "server_time"
        case coverageGuaranteed = "coverage_guaranteed"
        case coverageReason = "coverage_reason"
        case selectionLimited = "selection_limited"
        case unknownNetworks = "unknown_networks"
        case resolvedNetworks = "resolved_networks"
        case ignoredFields = "ignored_fields"
    }
}

/// Why a response has no coverage guarantee.
public enum CoverageReason: String, Codable, Sendable, Hashable {
    /// The fix's accuracy circle is too wide: the phone may already be within the floor distance (100 m) of a card
    /// location it does not monitor, though the point it sent is not.
    case accuracy
    /// A card location the response does not monitor starts within the floor distance of the point sent.
    case unmonitoredNearby = "unmonitored_nearby"
}

/// One circular region to monitor.
public struct Region: Codable, Sendable, Hashable {
    /// The location id (`loc_costco_…`); `…#2` etc. for the extra circles of a split large venue;
    /// `oncue-refresh` for the refresh region.
    public var id: String
    public var networkId: String
    public var lat: Double
    public var lon: Double
    public var radiusMeters: Double
    /// 1...n in the returned order.
    public var priority: Int
    public var name: String
    public var address: String?
    /// `location` or `refresh` (the refresh region). Absent in the product document; added, optional.
    public var kind: Kind?
    /// Ids of same-network locations merged into this region (besides `id`), when any: the best-ranked ones, at most
    /// the engine's `mergedIdsLimit`.
    public var mergedLocationIds: [String]?
    /// How many locations were merged into this region (besides `id`), when any; more than `merged_location_ids` lists
    /// when that was cut at its limit.
    public var mergedCount: Int?
    /// Score parts, when the request asked for `explain`.
    public var explain: Explanation?

    public enum Kind: String, Codable, Sendable { case location, refresh }

    public init(
        id: String, networkId: String, lat: Double, lon: Double, radiusMeters: Double, priority: Int, name: String,
        address: String?, kind: Kind? = .location, mergedLocationIds: [String]? = nil, mergedCount: Int? = nil,
        explain: Explanation? = nil
    ) {
        self.id = id
        self.networkId = networkId
        self.lat = lat
        self.lon = lon
        self.radiusMeters = radiusMeters
        self.priority = priority
        self.name = name
        self.address = address
        self.kind = kind
        self.mergedLocationIds = mergedLocationIds
        self.mergedCount = mergedCount ?? mergedLocationIds.map(\.count)
        self.explain = explain
    }

    enum CodingKeys: String, CodingKey {
        case id
        case networkId = "network_id"
        case lat, lon
        case radiusMeters = "radius_meters"
        case priority, name, address, kind
        case mergedLocationIds = "merged_location_ids"
        case mergedCount = "merged_count"
        case explain
    }

    /// Why a region ranked where it did.
    public struct Explanation: Codable, Sendable, Hashable {
        /// 1 = a network the user holds a card for, 2 = other networks.
        public var tier: Int
        public var distanceMeters: Double
        /// max(0, distance − radius): how far the phone is from entering.
        public var boundaryDistanceMeters: Double
        /// The lead location's own radius (explicit, network default or density tier), before `min_radius_meters`.
        public var radiusBeforeFloorMeters: Double
        /// That radius raised to the request's floor: what merging and the refresh distance used.
        public var radiusAfterFloorMeters: Double
        public var visitBoost: Double
        public var timeOfDayBoost: Double
        /// boundary distance ÷ (visit boost × time boost); lower ranks first within a tier.
        public var score: Double
        /// Which rule chose the radius: explicit, network-default, large-area, split-venue, dense, suburban, rural, merged.
        public var radiusRule: String
        /// Locations of any network within 1 km of this one (they move the radius within its tier).
        public var localDensity: Int
        /// People per km² around the location, from the populated places shipped with OnCue (it picks the tier).
        public var placeDensity: Int
        /// The lead location's OpenStreetMap `opening_hours`, when it has a value the server understands.
        public var openingHours: String?
        /// With `local_time` and opening hours: whether the location is closed for the whole of the server's lookahead
        /// (30 minutes unless configured), which ranks it after every open location of its tier. `score` leaves that out.
        public var closedSoon: Bool?

        public init(
            tier: Int, distanceMeters: Double, boundaryDistanceMeters: Double, radiusBeforeFloorMeters: Double,
            radiusAfterFloorMeters: Double, visitBoost: Double, timeOfDayBoost: Double,
            score: Double, radiusRule: String, localDensity: Int, placeDensity: Int, openingHours: String? = nil,
            closedSoon: Bool? = nil
        ) {
            self.tier = tier
            self.distanceMeters = distanceMeters
            self.boundaryDistanceMeters = boundaryDistanceMeters
            self.radiusBeforeFloorMeters = radiusBeforeFloorMeters
            self.radiusAfterFloorMeters = radiusAfterFloorMeters
            self.visitBoost = visitBoost
            self.timeOfDayBoost = timeOfDayBoost
            self.score = score
            self.radiusRule = radiusRule
            self.localDensity = localDensity
            self.placeDensity = placeDensity
            self.openingHours = openingHours
            self.closedSoon = closedSoon
        }

        enum CodingKeys: String, CodingKey {
            case tier
            case distanceMeters = "distance_meters"
            case boundaryDistanceMeters = "boundary_distance_meters"
            case radiusBeforeFloorMeters = "radius_before_floor_meters"
            case radiusAfterFloorMeters = "radius_after_floor_meters"
            case visitBoost = "visit_boost"
            case timeOfDayBoost = "time_of_day_boost"
            case score
            case radiusRule = "radius_rule"
            case localDensity = "local_density"
            case placeDensity = "place_density"
            case openingHours = "opening_hours"
            case closedSoon = "closed_soon"
        }
    }
}
