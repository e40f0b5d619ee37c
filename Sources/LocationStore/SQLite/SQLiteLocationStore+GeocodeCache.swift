import Foundation

extension SQLiteLocationStore {
    /// The cached answer of `source` for a normalised address, if it was ever asked.
    public func cachedGeocode(source: String, key: String) throws -> GeocodeCacheEntry? {
        let s = try db.statement("""
            SELECT status, lat, lon, display_name, place_rank, importance, country_code, fetched_at
            FROM geocode_cache WHERE source = ?1 AND address_key = ?2
            """)
        s.bind(1, source)
        s.bind(2, key)
        defer { s.reset() }  // a statement left on its row would hold a read on the file
        guard try s.step() else { return nil }
        guard let status = GeocodeCacheEntry.Status(rawValue: s.text(0)) else { return nil }
        return GeocodeCacheEntry(key: key, status: status, lat: s.optionalDouble(1), lon: s.optionalDouble(2),
                                 displayName: s.optionalText(3), placeRank: s.optionalInt64(4).map { Int($0) },
                                 importance: s.optionalDouble(5), countryCode: s.optionalText(6), source: source,
                                 fetchedAt: Self.parseTimestamp(s.text(7)) ?? Date(timeIntervalSince1970: 0))
    }

    /// Keeps an answer, replacing an older one for the same address and service. Inside an open transaction it
    /// joins it; otherwise it commits at once, so a long geocoding run that is killed keeps every answer it got.
    public func storeGeocode(_ entry: GeocodeCacheEntry) throws {
        try writeTransaction {
            let s = try db.statement("""
                INSERT OR REPLACE INTO geocode_cache
                    (source, address_key, status, lat, lon, display_name, place_rank, importance, country_code, fetched_at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
                """)
            s.bind(1, entry.source)
            s.bind(2, entry.key)
            s.bind(3, entry.status.rawValue)
            s.bind(4, entry.lat)
            s.bind(5, entry.lon)
            s.bind(6, entry.displayName)
            s.bind(7, entry.placeRank.map { Int64($0) })
            s.bind(8, entry.importance)
            s.bind(9, entry.countryCode)
            s.bind(10, Self.timestamp(entry.fetchedAt))
            _ = try s.step()
        }
    }

    /// How many answers the cache holds.
    public func geocodeCacheCount() throws -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM geocode_cache") ?? 0)
    }
}
