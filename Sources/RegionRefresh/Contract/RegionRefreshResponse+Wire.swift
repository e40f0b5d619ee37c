import OnCueContract

extension RegionRefreshResponse {
    /// The wire form of the response as `POST /v1/region-refresh` sends it: snake_case, keys in the
    /// product document's order, whole numbers without a fraction, optional fields left out when nil.
    public func wireJSON() -> [UInt8] {
        var w = JSONWriter(capacity: 256 + regions.count * 256)
        write(to: &w)
        return w.bytes
    }

    /// Appends the wire form to `w` (a server copies it from there into its response buffer).
    public func write(to w: inout JSONWriter) {
        w.regionRefreshResponse(
            refreshAfterMeters: refreshAfterMeters, cacheTtlSeconds: cacheTtlSeconds, serverTime: serverTime,
            coverageGuaranteed: coverageGuaranteed, coverageReason: coverageReason, selectionLimited: selectionLimited == true,
            unknownNetworks: unknownNetworks ?? [],
            resolvedNetworks: (resolvedNetworks ?? [:]).map { ResolvedNetwork(spelling: $0.key, networkId: $0.value) }
                .sorted { $0.spelling < $1.spelling }
        ) { w in
            for region in regions { region.write(to: &w) }
        }
    }
}

extension JSONWriter {
    /// The response object around its regions, which `writeRegions` writes (with `region(…)`, one call each).
    mutating func regionRefreshResponse(
        refreshAfterMeters: Double, cacheTtlSeconds: Int, serverTime: String, coverageGuaranteed: Bool,
        coverageReason: CoverageReason?, selectionLimited: Bool, unknownNetworks: [String],
        resolvedNetworks: [ResolvedNetwork], writeRegions: (inout JSONWriter) -> Void
    ) {
        beginObject()
        key("regions")
        beginArray()
        writeRegions(&self)
        endArray()
        key("refresh_after_meters")
        number(refreshAfterMeters)
        key("cache_ttl_seconds")
        int(cacheTtlSeconds)
        key("server_time")
        string(serverTime)
        key("coverage_guaranteed")
        bool(coverageGuaranteed)
        if let coverageReason {
            key("coverage_reason")
            string(coverageReason.rawValue)
        }
        if selectionLimited {
            key("selection_limited")
            bool(true)
        }
        if !unknownNetworks.isEmpty {
            key("unknown_networks")
            beginArray()
            for id in unknownNetworks { string(id) }
            endArray()
        }
        // Sorted by spelling, each spelling once: the keys of a JSON object are unique (RFC 8259 §4).
        if !resolvedNetworks.isEmpty {
            key("resolved_networks")
            beginObject()
            for (i, network) in resolvedNetworks.enumerated() where i == 0 || network.spelling != resolvedNetworks[i - 1].spelling {
                key(text: network.spelling)
                string(network.networkId)
            }
            endObject()
        }
        endObject()
    }
}

/// One region of a response as it is written: `Region`'s fields, with a split venue's extra circle given as its
/// location's id and a suffix (written `<id>#k`) so that the server need not build that string.
struct RegionView {
    var id: String
    var idSuffix: Int? = nil
    var networkId: String
    var lat: Double
    var lon: Double
    var radiusMeters: Double
    var priority: Int
    var name: String
    var address: String? = nil
    var kind: Region.Kind?
    var mergedLocationIds: [String]? = nil
    var mergedCount: Int? = nil
    var explain: Region.Explanation? = nil

    var region: Region {
        Region(
            id: idSuffix.map { "\(id)#\($0)" } ?? id, networkId: networkId, lat: lat, lon: lon, radiusMeters: radiusMeters,
            priority: priority, name: name, address: address, kind: kind, mergedLocationIds: mergedLocationIds,
            mergedCount: mergedCount, explain: explain)
    }
}

extension Region {
    func write(to w: inout JSONWriter) {
        w.region(
            RegionView(
                id: id, networkId: networkId, lat: lat, lon: lon, radiusMeters: radiusMeters, priority: priority, name: name,
                address: address, kind: kind, mergedLocationIds: mergedLocationIds, mergedCount: mergedCount, explain: explain))
    }
}

extension JSONWriter {
    /// One region object. Both `Region` and `RegionSelection` write through this, so the server's JSON and the
    /// Codable response's agree.
    mutating func region(_ r: borrowing RegionView) {
        // Keys as whole fragments with their punctuation: one append each instead of four.
        beginObject()
        raw("\"id\":")
        if let idSuffix = r.idSuffix { string(r.id, suffix: idSuffix) } else { string(r.id) }
        raw(",\"network_id\":")
        string(r.networkId)
        raw(",\"lat\":")
        number(r.lat)
        raw(",\"lon\":")
        number(r.lon)
        raw(",\"radius_meters\":")
        number(r.radiusMeters)
        raw(",\"priority\":")
        int(r.priority)
        raw(",\"name\":")
        string(r.name)
        if let address = r.address {
            raw(",\"address\":")
            string(address)
        }
        switch r.kind {
        case .location?:
            raw(",\"kind\":\"location\"")
            rawValueWritten()
        case .refresh?:
            raw(",\"kind\":\"refresh\"")
            rawValueWritten()
        case nil: break
        }
        if let mergedLocationIds = r.mergedLocationIds {
            key("merged_location_ids")
            beginArray()
            for id in mergedLocationIds { string(id) }
            endArray()
        }
        if let mergedCount = r.mergedCount {
            key("merged_count")
            int(mergedCount)
        }
        if let explain = r.explain {
            key("explain")
            beginObject()
            key("tier")
            int(explain.tier)
            key("distance_meters")
            number(explain.distanceMeters)
            key("boundary_distance_meters")
            number(explain.boundaryDistanceMeters)
            key("radius_before_floor_meters")
            number(explain.radiusBeforeFloorMeters)
            key("radius_after_floor_meters")
            number(explain.radiusAfterFloorMeters)
            key("visit_boost")
            number(explain.visitBoost)
            key("time_of_day_boost")
            number(explain.timeOfDayBoost)
            key("score")
            number(explain.score)
            key("radius_rule")
            string(explain.radiusRule)
            key("local_density")
            int(explain.localDensity)
            key("place_density")
            int(explain.placeDensity)
            if let hours = explain.openingHours {
                key("opening_hours")
                string(hours)
            }
            if let closed = explain.closedSoon {
                key("closed_soon")
                bool(closed)
            }
            endObject()
        }
        endObject()
    }
}
