import ChainImport
import Foundation
import Geo
import LocationStore
import SQLiteStore
import TestSupport
import Testing

@Suite("Importing with a geocoder (loopback stub)")
struct GeocodingImportTests {
    static func options(_ url: URL, mode: GeocodeMode = .missing, require: Bool = false, dryRun: Bool = false) -> ImportOptions {
        var options = ImportOptions(network: "shops", dryRun: dryRun)
        options.geocoding = GeocodingOptions(settings: GeocoderTests.settings(url), mode: mode, requireGeocode: require)
        return options
    }

    /// Addresses the stub answers by their first word (see `GeocoderStub`).
    static let addressesOnly = """
        id,name,address,city,country,lat,lon
        1,One,at 40.7501 -73.9901 Broadway,New York,US,,
        2,Two,at 40.7402 -73.9802 Park Ave,New York,US,,
        3,Three,none 3 Nowhere St,New York,US,,
        4,Four,area 4 Vague Rd,New York,,,
        5,Five,abroad 5 Elsewhere,New York,United States,,
        6,Six,with coordinates,New York,US,40.7300123,-73.9700456

        """

    @Test("rows without coordinates are placed from their address; the rest get reason codes; a re-import asks nothing")
    func missingCoordinates() async throws {
        try await GeocoderStub.with { stub, url in
            let t = try TempStore()
            let report = try await t.importText(Self.addressesOnly, Self.options(url))
            let file = report.files[0]
            #expect(file.counts.read == 6 && file.counts.inserted == 3 && file.counts.rejected == 3)
            #expect(file.rejectedByReason == ["geocode_not_found": 1, "geocode_ambiguous": 1, "geocode_wrong_country": 1])
            let g = try #require(file.geocoding)
            #expect(g.rows == 5 && g.asked == 5 && g.fromCache == 0 && g.placed == 2)
            #expect(g.notFound == 1 && g.ambiguous == 1 && g.wrongCountry == 1 && g.failed == 0)
            let one = try #require(try t.store.location(id: "loc_shops_1"))
            #expect(one.coordinate.latitude == 40.7501 && one.coordinate.longitude == -73.9901)
            let provenance = try #require(try t.store.geocodedLocation(id: "loc_shops_1"))
            #expect(provenance.placeRank == 30 && provenance.shiftMeters == nil && provenance.source == url.absoluteString)
            #expect(try t.store.geocodedLocation(id: "loc_shops_6") == nil, "a row placed by its file is not geocoded")
            #expect(report.geocodingPlan?.uncachedAddresses == 5)
            // The log keeps the geocoding summary.
            let importId = try #require(file.importId)
            #expect(try t.store.importRecord(id: importId)?.geocoding == g)

            let hitsBefore = await stub.hits.count
            let again = try await t.importText(Self.addressesOnly, Self.options(url))
            #expect(await stub.hits.count == hitsBefore, "every answer came from the cache")
            #expect(again.files[0].geocoding?.fromCache == 5 && again.files[0].geocoding?.asked == 0)
            #expect(again.files[0].counts.unchanged == 3 && again.files[0].counts.rejected == 3)
            #expect(again.geocodingPlan?.uncachedAddresses == 0)
        }
    }

    @Test("a dry run estimates the time and asks nothing")
    func dryRun() async throws {
        try await GeocoderStub.with { stub, url in
            let t = try TempStore()
            var options = Self.options(url, dryRun: true)
            options.geocoding?.settings.requestsPerSecond = 1
            let report = try await t.importText(Self.addressesOnly, options)
            #expect(await stub.hits.isEmpty)
            let plan = try #require(report.geocodingPlan)
            // At most two requests an address (its name there, then the address alone), at 1 request/s.
            #expect(plan.uncachedAddresses == 5 && plan.estimatedSeconds == 10 && plan.dryRun && plan.requestsSent == 0)
            #expect(report.files[0].rejectedByReason["geocode_not_asked"] == 5)
            #expect(try t.snapshot().isEmpty)
        }
    }

    @Test("--geocode coarse replaces rounded points, records the shift, and flags a point far from the file's")
    func coarseRows() async throws {
        let text = """
            id,name,address,city,lat,lon
            1,Near,at 40.7512 -73.9876 Seventh Ave,New York,40.75,-73.99
            2,Far,at 40.8 -73.9 Somewhere,New York,40.75,-73.99
            3,Precise,at 1 1 Ignored,New York,40.7512345,-73.9876543
            4,Lost,none 4 Nowhere,New York,40.74,-73.98

            """
        try await GeocoderStub.with { stub, url in
            let t = try TempStore()
            let report = try await t.importText(text, Self.options(url, mode: .coarse))
            let file = report.files[0]
            #expect(file.counts.inserted == 4 && file.counts.rejected == 0)
            #expect(file.geocoding?.rows == 3 && file.geocoding?.placed == 2 && file.geocoding?.farFromOriginal == 1)
            #expect(await stub.hits(street: "at 1 1 Ignored").isEmpty, "a precise row is not geocoded in coarse mode")
            let near = try #require(try t.store.location(id: "loc_shops_1"))
            #expect(near.coordinate.latitude == 40.7512)
            let shift = try #require(try t.store.geocodedLocation(id: "loc_shops_1")?.shiftMeters)
            #expect(abs(shift - Sphere.distance(lat1: 40.75, lon1: -73.99, lat2: 40.7512, lon2: -73.9876)) < 0.5)
            #expect(file.warningsByReason["geocode_far_from_original"] == 1)
            // Not found: the row keeps its own (coarse) point, with both warnings.
            #expect(try t.store.location(id: "loc_shops_4")?.coordinate.latitude == 40.74)
            #expect(file.warningsByReason["geocode_not_found"] == 1)
            #expect(file.warningsByReason["coarse_coordinates"] == 1, "only the row left at its coarse point is warned")
        }
    }

    @Test("a dead service: the import commits the rows it could place, or nothing with --require-geocode")
    func deadService() async throws {
        let t = try TempStore()
        var settings = GeocoderTests.settings(URL(string: "http://127.0.0.1:9")!)
        settings.maxBackoffSeconds = 0.05
        var options = ImportOptions(network: "shops")
        options.geocoding = GeocodingOptions(settings: settings, mode: .missing, requireGeocode: true)
        await #expect(throws: ImportError.self) { try await t.importText(Self.addressesOnly, options) }
        #expect(try t.snapshot().isEmpty, "nothing imported under --require-geocode")
        #expect(try t.store.imports(limit: 10).first?.status == "failed")

        options.geocoding?.requireGeocode = false
        let report = try await t.importText(Self.addressesOnly, options)
        #expect(report.files[0].counts.inserted == 1, "the row with coordinates of its own")
        #expect(report.files[0].rejectedByReason["geocode_failed"] == 5)
        #expect(report.geocodingPlan?.failed == 5)
        // Three failures in a row and the service is given up on: the last two are not even tried.
        #expect((report.geocodingPlan?.requestsSent ?? 99) <= 3 * settings.attempts)
    }

    /// On its own thread (`.blocking`: `waitUntilExit` holds one), with minutes to spare: a debug `oncue` started while
    /// the whole suite runs on two cores once took most of the old two-minute limit to reach its 13th address.
    @Test(.timeLimit(.minutes(5)), .blocking)
    func killedWhileGeocodingKeepsTheAnswersFetched() async throws {
        let oncue = try #require(OncueExecutable.path, "oncue executable not found; run `swift build` first")
        var text = "id,name,address,city\n"
        for i in 0..<40 { text += "\(i),Shop \(i),at \(40 + Double(i) / 1000) -74.0 Street \(i),New York\n" }
        try await GeocoderStub.with { [text] stub, url in
            let t = try TempStore()
            let csv = try t.file("shops.csv", text)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: oncue)
            process.arguments = [
                "import", csv, "--db", t.path, "--network", "shops", "--geocoder", url.absoluteString,
                "--geocoder-rps", "10", "--geocoder-timeout", "600", "--progress", "always",
            ]
            process.standardError = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            // The client asks one address at a time and caches each answer before asking the next, so once the
            // 13th address is asked (held unanswered), the first 12 answers have been received and written. Counted by
            // address: a request asked again (a timeout, a dropped keep-alive connection) is still one answer.
            await stub.hold(afterStreets: 12)
            try process.run()
            let thirteenthAsked = try await eventually { await stub.streets.count >= 13 }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            await stub.release()
            #expect(thirteenthAsked, "the import never asked a 13th address")
            #expect(process.terminationReason == .uncaughtSignal)
            #expect(await stub.streets.count == 13, "the killed import asked 12 addresses and was waiting on the 13th")

            let reopened = try SQLiteLocationStore(path: t.path)
            let cached = try reopened.geocodeCacheCount()
            #expect(cached == 12, "every answer received before the kill is in the cache (\(cached) of 12)")
            #expect(try reopened.stats().locationCount == 0, "the import itself never began")
            #expect(try reopened.verify() == [])

            // The re-run asks only the addresses the first one never got to.
            let answered = Set(await stub.streets.prefix(12))
            let before = await stub.hits.count
            var options = ImportOptions(network: "shops")
            options.geocoding = GeocodingOptions(settings: GeocoderTests.settings(url))
            let report = try await ChainImporter(store: reopened, options: options).run([try ImportInput.file(csv)])
            #expect(report.files[0].counts.inserted == 40)
            #expect(report.files[0].geocoding?.fromCache == cached)
            let asked = Set(await stub.hits[before...].map(\.street))
            #expect(asked.count == 40 - cached && asked.isDisjoint(with: answered), "the re-run asked \(asked.count) addresses")
        }
    }
}
