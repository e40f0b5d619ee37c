import Foundation
import Geo
import LocationStore

/// Where a row's address led.
package enum GeocodeOutcome: Sendable, Equatable {
    /// A point at street level or finer.
    case placed(GeocodeAnswer)
    case notFound
    /// Only an area matched (a city, a postcode): no point a geofence can sit on.
    case area(GeocodeAnswer)
    /// The service placed the address in another country than the row's.
    case wrongCountry(GeocodeAnswer, expected: String)
    case failed(String)

    /// The reason code a row gets when it is not placed.
    package var reasonCode: ReasonCode? {
        switch self {
        case .placed: nil
        case .notFound: .geocodeNotFound
        case .area: .geocodeAmbiguous
        case .wrongCountry: .geocodeWrongCountry
        case .failed: .geocodeFailed
        }
    }

    package var message: String {
        switch self {
        case .placed(let a): "geocoded (rank \(a.placeRank.map(String.init) ?? "?")): \(a.displayName ?? "")"
        case .notFound: "the geocoder knows no place for this address"
        case .area(let a):
            "the geocoder matched only an area (rank \(a.placeRank.map(String.init) ?? "?"): \(a.displayName ?? "")), not a street address"
        case .wrongCountry(let a, let expected):
            "the geocoder placed it in \(a.countryCode?.uppercased() ?? "another country"), the row says \(expected.uppercased())"
        case .failed(let reason): "geocoding failed: \(reason)"
        }
    }
}

/// Answers addresses from the store's geocode cache, asking the service only for addresses it has never answered.
/// Every answer is committed to the cache as it arrives (outside any import transaction), so an interrupted run
/// keeps what it fetched and a re-run asks nothing again. Belongs to one task, like the store.
package final class GeocodeResolver {
    package let store: any GeocodeCache
    package let client: NominatimClient
    /// The cache's `source`: the service's URL without credentials.
    package let source: String

    package struct Counts: Sendable, Equatable, Codable {
        package var asked = 0
        package var fromCache = 0
        package var placed = 0
        package var notFound = 0
        package var ambiguous = 0
        package var wrongCountry = 0
        package var failed = 0
    }
    package private(set) var counts = Counts()

    package init(store: any GeocodeCache, settings: GeocoderSettings) {
        self.store = store
        client = NominatimClient(settings: settings)
        source = settings.displayURL
    }

    /// The outcome for a row's address: by the place's name at that address first, when the query has one, then by the
    /// address alone. Each of the two is answered from the cache when it can be.
    package func resolve(_ query: AddressQuery) async throws -> GeocodeOutcome {
        let outcome: GeocodeOutcome
        if query.amenity != nil {
            let named = try await resolveOne(query)
            switch named {
            case .placed, .failed: outcome = named
            default: outcome = try await resolveOne(query.withoutAmenity)
            }
        } else {
            outcome = try await resolveOne(query)
        }
        switch outcome {
        case .placed: counts.placed += 1
        case .notFound: counts.notFound += 1
        case .area: counts.ambiguous += 1
        case .wrongCountry: counts.wrongCountry += 1
        case .failed: counts.failed += 1
        }
        return outcome
    }

    /// The cached outcome of `query`, by the same two steps as `resolve`, without asking the service; nil when the
    /// cache cannot answer it.
    package func cachedOutcome(_ query: AddressQuery) async throws -> GeocodeOutcome? {
        guard query.amenity != nil else { return try await cachedOne(query) }
        guard let named = try await cachedOne(query) else { return nil }
        if case .placed = named { return named }
        return try await cachedOne(query.withoutAmenity)
    }

    private func cachedOne(_ query: AddressQuery) async throws -> GeocodeOutcome? {
        try await store.cachedGeocode(source: source, key: query.cacheKey).map { Self.outcome(of: $0, country: query.country) }
    }

    private func resolveOne(_ query: AddressQuery) async throws -> GeocodeOutcome {
        if let cached = try await cachedOne(query) {
            counts.fromCache += 1
            return cached
        }
        counts.asked += 1
        let reply = await client.search(query)
        if let entry = Self.cacheEntry(for: reply, key: query.cacheKey, source: source) {
            try await store.storeGeocode(entry)
            return Self.outcome(of: entry, country: query.country)
        }
        if case .failed(let reason) = reply { return .failed(reason) }
        return .failed("unexpected reply")
    }

    /// Answers are cached; failures are not (the next run asks again).
    static func cacheEntry(for reply: GeocodeReply, key: String, source: String, now: Date = Date()) -> GeocodeCacheEntry? {
        switch reply {
        case .found(let a):
            GeocodeCacheEntry(
                key: key, status: a.isArea ? .area : .found, lat: a.lat, lon: a.lon, displayName: a.displayName,
                placeRank: a.placeRank, importance: a.importance, countryCode: a.countryCode,
                uncertaintyMeters: a.uncertaintyMeters, source: source, fetchedAt: now)
        case .notFound:
            GeocodeCacheEntry(key: key, status: .notFound, source: source, fetchedAt: now)
        case .failed:
            nil
        }
    }

    static func outcome(of entry: GeocodeCacheEntry, country: String?) -> GeocodeOutcome {
        guard entry.status != .notFound, let lat = entry.lat, let lon = entry.lon else { return .notFound }
        let answer = GeocodeAnswer(
            lat: lat, lon: lon, displayName: entry.displayName, placeRank: entry.placeRank,
            importance: entry.importance, countryCode: entry.countryCode, uncertaintyMeters: entry.uncertaintyMeters)
        if let expected = CountryCode.iso2(country), let got = entry.countryCode, got != expected {
            return .wrongCountry(answer, expected: expected)
        }
        return entry.status == .area ? .area(answer) : .placed(answer)
    }
}
