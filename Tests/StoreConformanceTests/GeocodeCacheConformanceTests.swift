import Foundation
import LocationStore
import Testing

/// A geocoder's answer round-trips through both stores' caches, its uncertainty with it.
@Suite("Geocode cache (SQLite and PostGIS)")
struct GeocodeCacheConformanceTests {
    @Test("an answer is kept whole, its bounding-box uncertainty included, and replaced by a newer one", arguments: TestStore.kinds)
    func roundTrip(kind: StoreKind) async throws {
        try await TestStore.with(kind) { store, _ in
            let cache = try #require(store as? any GeocodeCache)
            let fetched = Date(timeIntervalSince1970: 1_790_000_000)
            let street = GeocodeCacheEntry(
                key: "1 broadway|new york", status: .found, lat: 40.75, lon: -73.99, displayName: "Broadway", placeRank: 26,
                importance: 0.3, countryCode: "us", uncertaintyMeters: 512.5, source: "http://127.0.0.1:1", fetchedAt: fetched)
            try await cache.storeGeocode(street)
            let read = try #require(try await cache.cachedGeocode(source: street.source, key: street.key))
            #expect(read == street)
            var house = street
            house.placeRank = 30
            house.uncertaintyMeters = nil
            try await cache.storeGeocode(house)
            #expect(try await cache.cachedGeocode(source: street.source, key: street.key) == house)
            #expect(try await cache.geocodeCacheCount() == 1)
        }
    }
}
