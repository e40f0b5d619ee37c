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
        w.beginObject()
        w.key("regions")
        w.beginArray()
        for region in regions { region.write(to: &w) }
        w.endArray()
        Self.writeTrailer(refreshAfterMeters: refreshAfterMeters, cacheTtlSeconds: cacheTtlSeconds, serverTime: serverTime,
                          coverageGuaranteed: coverageGuaranteed, to: &w)
        w.endObject()
    }

    /// The members after `regions`.
    static func writeTrailer(refreshAfterMeters: Double, cacheTtlSeconds: Int, serverTime: String, coverageGuaranteed: Bool,
                             to w: inout JSONWriter) {
        w.key("refresh_after_meters"); w.number(refreshAfterMeters)
        w.key("cache_ttl_seconds"); w.int(cacheTtlSeconds)
        w.key("server_time"); w.string(serverTime)
        w.key("coverage_guaranteed"); w.bool(coverageGuaranteed)
    }
}

extension Region {
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(id)
        w.key("network_id"); w.string(networkId)
        w.key("lat"); w.number(lat)
        w.key("lon"); w.number(lon)
        w.key("radius_meters"); w.number(radiusMeters)
        w.key("priority"); w.int(priority)
        w.key("name"); w.string(name)
        if let address { w.key("address"); w.string(address) }
        if let kind { w.key("kind"); w.string(kind.rawValue) }
        if let mergedLocationIds {
            w.key("merged_location_ids")
            w.beginArray()
            for id in mergedLocationIds { w.string(id) }
            w.endArray()
        }
        if let explain {
            w.key("explain")
            w.beginObject()
            w.key("tier"); w.int(explain.tier)
            w.key("distance_meters"); w.number(explain.distanceMeters)
            w.key("boundary_distance_meters"); w.number(explain.boundaryDistanceMeters)
            w.key("visit_boost"); w.number(explain.visitBoost)
            w.key("time_of_day_boost"); w.number(explain.timeOfDayBoost)
            w.key("score"); w.number(explain.score)
            w.key("radius_rule"); w.string(explain.radiusRule)
            w.key("local_density"); w.int(explain.localDensity)
            w.endObject()
        }
        w.endObject()
    }
}
