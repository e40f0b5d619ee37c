/// Where geocoding answers are kept, so a re-import asks the service nothing again: both stores keep them.
public protocol GeocodeCache: AnyObject {
    func cachedGeocode(source: String, key: String) async throws -> GeocodeCacheEntry?
    /// Keeps an answer at once (outside any import transaction): an interrupted run keeps what it fetched.
    func storeGeocode(_ entry: GeocodeCacheEntry) async throws
    func geocodeCacheCount() async throws -> Int
}
