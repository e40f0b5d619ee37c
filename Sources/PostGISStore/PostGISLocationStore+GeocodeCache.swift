import Foundation
import Geo
import LocationStore
import PostgresNIO

extension PostGISLocationStore {
    public func cachedGeocode(source: String, key: String) async throws -> GeocodeCacheEntry? {
        guard
            let row = try await rows(
                """
                SELECT status, lat, lon, display_name, place_rank, importance, country_code, fetched_at, uncertainty_m
                FROM geocode_cache WHERE source = \(source) AND address_key = \(key)
                """
            ).first
        else { return nil }
        let (status, lat, lon, display, rank, importance, country, fetched, uncertainty) = try row.decode(
            (String, Double?, Double?, String?, Int32?, Double?, String?, Date, Double?).self)
        guard let s = GeocodeCacheEntry.Status(rawValue: status) else { return nil }
        return GeocodeCacheEntry(
            key: key, status: s, lat: lat, lon: lon, displayName: display, placeRank: rank.map { Int($0) },
            importance: importance, countryCode: country, uncertaintyMeters: uncertainty, source: source, fetchedAt: fetched)
    }

    /// Keeps an answer (committed at once outside a transaction, so a killed geocoding run keeps what it fetched).
    public func storeGeocode(_ e: GeocodeCacheEntry) async throws {
        try await query(
            """
            INSERT INTO geocode_cache (source, address_key, status, lat, lon, display_name, place_rank, importance, country_code, fetched_at,
                uncertainty_m)
            VALUES (\(e.source), \(e.key), \(e.status.rawValue), \(e.lat), \(e.lon), \(e.displayName), \(e.placeRank.map { Int32($0) }),
                \(e.importance), \(e.countryCode), \(e.fetchedAt), \(e.uncertaintyMeters))
            ON CONFLICT (source, address_key) DO UPDATE SET status = EXCLUDED.status, lat = EXCLUDED.lat, lon = EXCLUDED.lon,
                display_name = EXCLUDED.display_name, place_rank = EXCLUDED.place_rank, importance = EXCLUDED.importance,
                country_code = EXCLUDED.country_code, fetched_at = EXCLUDED.fetched_at, uncertainty_m = EXCLUDED.uncertainty_m
            """)
    }

    public func geocodeCacheCount() async throws -> Int {
        Int(try await rows("SELECT count(*) FROM geocode_cache").first?.decode(Int64.self) ?? 0)
    }

    public func geocodedLocation(id: String) async throws -> GeocodeProvenance? {
        guard
            let row = try await rows(
                """
                SELECT source, display_name, place_rank, importance, original_lat, original_lon, shift_m, import_id
                FROM geocoded_locations WHERE location_id = \(id)
                """
            ).first
        else { return nil }
        let (source, display, rank, importance, lat, lon, shift, importId) = try row.decode(
            (String, String?, Int32?, Double?, Double?, Double?, Double?, Int64?).self)
        return GeocodeProvenance(
            locationId: id, source: source, displayName: display, placeRank: rank.map { Int($0) }, importance: importance,
            originalLatitude: lat, originalLongitude: lon, shiftMeters: shift, importId: importId)
    }

    public func geocodedLocationCount() async throws -> Int {
        Int(try await rows("SELECT count(*) FROM geocoded_locations").first?.decode(Int64.self) ?? 0)
    }
}

extension PostGISLocationStore: GeocodeCache {}
