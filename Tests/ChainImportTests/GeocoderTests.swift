import Foundation
import LocationStore
import SQLiteStore
import Testing

@testable import ChainImport

@Suite("Geocoding client and cache, against a loopback service")
struct GeocoderTests {
    static func settings(_ url: URL, rps: Double = 50) -> GeocoderSettings {
        var s = GeocoderSettings(baseURL: url)
        s.requestsPerSecond = rps
        // Generous: with the whole suite on CI's two cores a loopback answer has taken over 5 s, and a timeout retries,
        // which would change the requests these tests count. The timeout test sets its own.
        s.timeoutSeconds = 60
        s.attempts = 3
        s.maxBackoffSeconds = 5
        return s
    }

    @Test("a structured jsonv2 search with limit 1, address details and a descriptive User-Agent")
    func requestShape() async throws {
        try await GeocoderStub.with { stub, url in
            let client = NominatimClient(settings: Self.settings(url))
            let reply = await client.search(
                AddressQuery(
                    street: "found Aleksanterinkatu 21", city: "Helsinki",
                    postalCode: "00100", country: "Finland"))
            guard case .found(let answer) = reply else {
                Issue.record("expected a place, got \(reply)")
                return
            }
            #expect(answer.placeRank == 30 && answer.countryCode == "fi")
            #expect(abs(answer.lat - 60.1689) < 1e-9 && abs(answer.lon - 24.9416) < 1e-9)
            let hit = try #require(await stub.hits.first)
            #expect(hit.query["format"] == "jsonv2" && hit.query["limit"] == "1" && hit.query["addressdetails"] == "1")
            #expect(hit.query["city"] == "Helsinki" && hit.query["postalcode"] == "00100" && hit.query["country"] == "Finland")
            #expect(hit.userAgent.hasPrefix("OnCue"))
        }
    }

    @Test("requests start no closer together than the rate limit allows")
    func pacing() async throws {
        try await GeocoderStub.with { stub, url in
            let client = NominatimClient(settings: Self.settings(url, rps: 5))
            let started = ContinuousClock.now
            for i in 0..<4 { _ = await client.search(AddressQuery(street: "found \(i)", city: "Helsinki")) }
            // At 5/s the fourth request starts 600 ms after the first: the pacer sleeps until each slot, so this lower
            // bound holds however slow the machine is.
            #expect(ContinuousClock.now - started >= .milliseconds(600))
            // The first arrival of each address (a request retried after a slow answer arrives twice).
            var firsts: [String: ContinuousClock.Instant] = [:]
            for hit in await stub.hits where firsts[hit.street] == nil { firsts[hit.street] = hit.at }
            let times = firsts.values.sorted()
            #expect(times.count == 4)
            // The fourth cannot leave the client before 600 ms, so it cannot reach the stub earlier either (the
            // first's arrival is no reference: it waits for the connection to be set up, the others do not).
            if let last = times.last {
                #expect(last - started >= .milliseconds(600), "the fourth request arrived \(last - started) after the first was sent")
            }
        }
    }

    @Test("503 with Retry-After is retried after the time asked, then answered")
    func retryAfter() async throws {
        try await GeocoderStub.with { stub, url in
            let client = NominatimClient(settings: Self.settings(url))
            let reply = await client.search(AddressQuery(street: "busy Mannerheimintie 1", city: "Helsinki"))
            guard case .found = reply else {
                Issue.record("expected a place after the retry, got \(reply)")
                return
            }
            // Two requests: the 503 and the one after the second it asked for.
            let hits = await stub.hits(street: "busy Mannerheimintie 1")
            #expect(hits.count == 2, "\(hits.count) requests")
            if hits.count >= 2 { #expect(hits[1].at - hits[0].at >= .milliseconds(950)) }
        }
    }

    @Test("a service that keeps throttling, asks for an hour, times out or answers garbage fails the row with a reason")
    func failures() async throws {
        try await GeocoderStub.with { stub, url in
            let client = NominatimClient(settings: Self.settings(url))
            let throttled = await client.search(AddressQuery(street: "throttled 1", city: "Helsinki"))
            #expect(throttled == .failed("HTTP 429 after 3 tries"))
            #expect(await stub.hits(street: "throttled 1").count == 3)

            let forever = await client.search(AddressQuery(street: "forever 1", city: "Helsinki"))
            guard case .failed(let why) = forever else {
                Issue.record("expected a failure, got \(forever)")
                return
            }
            #expect(why.contains("3600"))
            #expect(await stub.hits(street: "forever 1").count == 1, "an hour's wait is not worth a second try")

            let garbage = await client.search(AddressQuery(street: "garbage 1", city: "Helsinki"))
            #expect(garbage == .failed("the answer is not JSON"))

            // Three addresses failed in a row: the service is given up on and the next one is not even asked.
            #expect(await client.gaveUp)
            let skipped = await client.search(AddressQuery(street: "found 9", city: "Helsinki"))
            guard case .failed(let skippedWhy) = skipped else {
                Issue.record("expected a skip, got \(skipped)")
                return
            }
            #expect(skippedWhy.contains("not asked"))
            #expect(await stub.hits(street: "found 9").isEmpty)
        }
        try await GeocoderStub.with { _, url in
            var settings = Self.settings(url)
            settings.timeoutSeconds = 1  // the stub answers `slow` after 3 s
            let client = NominatimClient(settings: settings)
            let started = ContinuousClock.now
            let slow = await client.search(AddressQuery(street: "slow 1", city: "Helsinki"))
            guard case .failed(let why) = slow else {
                Issue.record("expected a timeout, got \(slow)")
                return
            }
            #expect(why.contains("timeout"), "\(why)")
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }

    @Test("an unreachable service fails fast and is given up on after three addresses")
    func unreachable() async throws {
        // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
        var s = Self.settings(URL(string: "http://127.0.0.1:9")!)
        s.maxBackoffSeconds = 0.05
        let client = NominatimClient(settings: s)
        for i in 0..<3 {
            let reply = await client.search(AddressQuery(street: "found \(i)", city: "Helsinki"))
            guard case .failed(let why) = reply else {
                Issue.record("expected a failure, got \(reply)")
                return
            }
            #expect(why.contains("cannot reach") || why.contains("transport"), "\(why)")
        }
        #expect(await client.gaveUp)
    }

    @Test("answers are cached in the store: a second resolve asks nothing; areas and other countries are not placed")
    func cache() async throws {
        let temp = try TempStore()
        let path = temp.path
        let query = AddressQuery(street: "found  Bulevardi 9", city: "HELSINKI", country: "Finland")
        let source = try await GeocoderStub.with { stub, url in
            let store = try SQLiteLocationStore(path: path)
            let resolver = GeocodeResolver(store: store, settings: Self.settings(url))
            guard case .placed = try await resolver.resolve(query) else {
                Issue.record("expected a place")
                return resolver.source
            }
            // At least one request (a loaded machine may time one out and retry it), and the cached answer adds none.
            let asked = await stub.hits(street: "found Bulevardi 9").count
            #expect(asked >= 1)
            // The same address spelled with other case and spacing hits the cache.
            let again = try await resolver.resolve(AddressQuery(street: "found Bulevardi 9", city: "helsinki", country: "finland"))
            guard case .placed = again else {
                Issue.record("expected the cached place, got \(again)")
                return resolver.source
            }
            #expect(await stub.hits(street: "found Bulevardi 9").count == asked)
            #expect(resolver.counts.asked == 1 && resolver.counts.fromCache == 1)

            #expect(try await resolver.resolve(AddressQuery(street: "area 1", city: "Helsinki")).reasonCode == .geocodeAmbiguous)
            #expect(try await resolver.resolve(AddressQuery(street: "none 1", city: "Helsinki")).reasonCode == .geocodeNotFound)
            #expect(
                try await resolver.resolve(AddressQuery(street: "abroad 1", city: "Helsinki", country: "FI")).reasonCode
                    == .geocodeWrongCountry)
            // Failures are not cached: the next run asks again.
            #expect(try await resolver.resolve(AddressQuery(street: "garbage 2", city: "Helsinki")).reasonCode == .geocodeFailed)
            #expect(try store.geocodeCacheCount() == 4)
            return resolver.source
        }
        // The cache lives in the file: the store opened again answers without any service.
        let reopened = try SQLiteLocationStore(path: temp.path)
        let entry = try #require(try reopened.cachedGeocode(source: source, key: query.cacheKey))
        #expect(entry.status == .found && entry.countryCode == "fi" && entry.placeRank == 30)
    }

    @Test("Retry-After as seconds or as an HTTP date")
    func retryAfterParsing() {
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(RetryAfter.seconds("120", now: now) == 120)
        #expect(RetryAfter.seconds("Wed, 21 Oct 2015 07:30:00 GMT", now: now) == 120)
        #expect(RetryAfter.seconds("soon", now: now) == nil)
        #expect(RetryAfter.seconds("-5", now: now) == nil)
        #expect(RetryAfter.seconds(nil, now: now) == nil)
    }

    @Test("country columns are compared by ISO code, whatever their spelling")
    func countries() {
        #expect(CountryCode.iso2("Finland") == "fi")
        #expect(CountryCode.iso2("FI") == "fi")
        #expect(CountryCode.iso2("United States") == "us")
        #expect(CountryCode.iso2("USA") == "us")
        #expect(CountryCode.iso2("Atlantis") == nil)
    }
}
