import Foundation
import LocationStore

extension SQLiteLocationStore {
    /// The cached answer of `source` for a normalised address, if it was ever asked.
    public func cachedGeocode(source: String, key: String) throws -> GeocodeCacheEntry? {
        let s = try db.statement(
            """
            SELECT status, lat, lon, display_name, place_rank, importance, country_code, fetched_at, uncertainty_m
            FROM geocode_cache WHERE source = ?1 AND address_key = ?2
            """)
        s.bind(1, source)
        s.bind(2, key)
        defer { s.reset() }  // a statement left on its row would hold a read on the file
        guard try s.step() else { return nil }
        guard let status = GeocodeCacheEntry.Status(rawValue: s.text(0)) else { return nil }
        return GeocodeCacheEntry(
            key: key, status: status, lat: s.optionalDouble(1), lon: s.optionalDouble(2),
            displayName: s.optionalText(3), placeRank: s.optionalInt64(4).map { Int($0) },
            importance: s.optionalDouble(5), countryCode: s.optionalText(6), uncertaintyMeters: s.optionalDouble(8), source: source,
            fetchedAt: Self.parseTimestamp(s.text(7)) ?? Date(timeIntervalSince1970: 0))
    }

    /// Keeps an answer, replacing an older one for the same address and service. Inside an open transaction it
    /// joins it; otherwise it commits at once, so a long geocoding run that is killed keeps every answer it got.
    public func storeGeocode(_ entry: GeocodeCacheEntry) throws {
        try writeTransaction {
            let s = try db.statement(
                """
                INSERT OR REPLACE INTO geocode_cache
                    (source, address_key, status, lat, lon, display_name, place_rank, importance, country_code, fetched_at,
                     uncertainty_m)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
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
            s.bind(11, entry.uncertaintyMeters)
            _ = try s.step()
        }
    }

    /// How many answers the cache holds.
    public func geocodeCacheCount() throws -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM geocode_cache") ?? 0)
    }
}

extension SQLiteLocationStore {
    /// Records where a geocoded location's point came from (replacing an earlier record for it).
    public func recordGeocodedLocation(_ p: GeocodeProvenance) throws(StoreError) {
        let s = try db.statement(
            """
            INSERT OR REPLACE INTO geocoded_locations
                (location_id, source, display_name, place_rank, importance, original_lat, original_lon, shift_m, import_id)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            """)
        s.bind(1, p.locationId)
        s.bind(2, p.source)
        s.bind(3, p.displayName)
        s.bind(4, p.placeRank.map { Int64($0) })
        s.bind(5, p.importance)
        s.bind(6, p.originalLatitude)
        s.bind(7, p.originalLongitude)
        s.bind(8, p.shiftMeters)
        s.bind(9, p.importId)
        _ = try s.step()
    }

    /// A location whose file coordinates now stand is no longer geocoded.
    public func forgetGeocodedLocation(id: String) throws(StoreError) {
        let s = try db.statement("DELETE FROM geocoded_locations WHERE location_id = ?1")
        s.bind(1, id)
        _ = try s.step()
    }

    /// Drops the records of locations that no longer exist (after `--replace-network` removed some).
    public func pruneGeocodedLocations() throws(StoreError) {
        try db.execute("DELETE FROM geocoded_locations WHERE location_id NOT IN (SELECT id FROM locations)")
    }

    public func geocodedLocation(id: String) throws(StoreError) -> GeocodeProvenance? {
        let s = try db.statement(
            """
            SELECT source, display_name, place_rank, importance, original_lat, original_lon, shift_m, import_id
            FROM geocoded_locations WHERE location_id = ?1
            """)
        s.bind(1, id)
        defer { s.reset() }
        guard try s.step() else { return nil }
        return GeocodeProvenance(
            locationId: id, source: s.text(0), displayName: s.optionalText(1),
            placeRank: s.optionalInt64(2).map { Int($0) }, importance: s.optionalDouble(3),
            originalLatitude: s.optionalDouble(4), originalLongitude: s.optionalDouble(5),
            shiftMeters: s.optionalDouble(6), importId: s.optionalInt64(7))
    }

    /// How many locations have geocoded points.
    public func geocodedLocationCount() throws(StoreError) -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM geocoded_locations") ?? 0)
    }
}
