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
        w.regionRefreshResponse(refreshAfterMeters: refreshAfterMeters, cacheTtlSeconds: cacheTtlSeconds, serverTime: serverTime,
                                coverageGuaranteed: coverageGuaranteed) { w in
            for region in regions { region.write(to: &w) }
        }
    }
}

extension JSONWriter {
    /// The response object around its regions, which `writeRegions` writes (with `region(…)`, one call each).
    mutating func regionRefreshResponse(refreshAfterMeters: Double, cacheTtlSeconds: Int, serverTime: String, coverageGuaranteed: Bool,
                                        writeRegions: (inout JSONWriter) -> Void) {
        beginObject()
        key("regions")
        beginArray()
        writeRegions(&self)
        endArray()
        key("refresh_after_meters"); number(refreshAfterMeters)
        key("cache_ttl_seconds"); int(cacheTtlSeconds)
        key("server_time"); string(serverTime)
        key("coverage_guaranteed"); bool(coverageGuaranteed)
        endObject()
    }
}

extension Region {
    func write(to w: inout JSONWriter) {
        w.region(id: id, networkId: networkId, lat: lat, lon: lon, radiusMeters: radiusMeters, priority: priority, name: name,
                 address: address, kind: kind, mergedLocationIds: mergedLocationIds, explain: explain)
    }
}

extension JSONWriter {
    /// One region object; `idSuffix` k makes the id `<id>#k` (a split venue's extra circle). Both `Region` and
    /// `RegionSelection` write through this, so the server's JSON and the Codable response's agree.
    mutating func region(id: String, idSuffix: Int? = nil, networkId: String, lat: Double, lon: Double, radiusMeters: Double, priority: Int,
                         name: String, address: String?, kind: Region.Kind?, mergedLocationIds: [String]?, explain: Region.Explanation?) {
        beginObject()
        key("id")
        if let idSuffix { string(id, suffix: idSuffix) } else { string(id) }
        key("network_id"); string(networkId)
        key("lat"); number(lat)
        key("lon"); number(lon)
        key("radius_meters"); number(radiusMeters)
        key("priority"); int(priority)
        key("name"); string(name)
        if let address { key("address"); string(address) }
        if let kind { key("kind"); string(kind.rawValue) }
        if let mergedLocationIds {
            key("merged_location_ids")
            beginArray()
            for id in mergedLocationIds { string(id) }
            endArray()
        }
        if let explain {
            key("explain")
            beginObject()
            key("tier"); int(explain.tier)
            key("distance_meters"); number(explain.distanceMeters)
            key("boundary_distance_meters"); number(explain.boundaryDistanceMeters)
            key("visit_boost"); number(explain.visitBoost)
            key("time_of_day_boost"); number(explain.timeOfDayBoost)
            key("score"); number(explain.score)
            key("radius_rule"); string(explain.radiusRule)
            key("local_density"); int(explain.localDensity)
            endObject()
        }
        endObject()
    }
}
