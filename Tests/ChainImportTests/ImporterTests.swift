import ChainImport
import Foundation
import Geo
import LocationStore
import SQLiteStore
import Testing

@Suite("Importer behaviour")
struct ImporterTests {
    static let csv = """
        id,name,address,city,state,lat,lon
        1,Alpha,"1 Main St, Suite 2",Springfield,IL,39.7817,-89.6501
        2,Beta,2 Oak Ave,Chicago,IL,41.8781,-87.6298
        3,Gamma,3 Elm St,Austin,TX,30.2672,-97.7431

        """

    @Test func reimportingTheSameFileChangesNothing() async throws {
        let t = try TempStore()
        let first = try await t.importText(Self.csv, ImportOptions(network: "acme"))
        #expect(first.totals == ImportCounts(read: 3, inserted: 3))
        let before = try t.snapshot()
        let second = try await t.importText(Self.csv, ImportOptions(network: "acme"))
        #expect(second.totals == ImportCounts(read: 3, unchanged: 3))
        #expect(try t.snapshot() == before)  // not even source_import_id moved
        #expect(before.map(\.id) == ["loc_acme_1", "loc_acme_2", "loc_acme_3"])
        #expect(before[0].address == "1 Main St, Suite 2")
    }

    @Test func changedRowsAreUpdatedAndReplaceNetworkRemovesUnlistedOnes() async throws {
        let t = try TempStore()
        try await t.importText(Self.csv, ImportOptions(network: "acme"))
        try await t.importText("id,lat,lon\n9,40.0,-75.0\n", ImportOptions(network: "other"))
        let edited = """
            id,name,address,city,state,lat,lon
            1,Alpha Renamed,"1 Main St, Suite 2",Springfield,IL,39.7817,-89.6501
            3,Gamma,3 Elm St,Austin,TX,30.2672,-97.7431
            4,Delta,4 Pine Rd,Dallas,TX,32.7767,-96.7970

            """
        let dry = try await t.importText(edited, ImportOptions(network: "acme", dryRun: true, replaceNetwork: true))
        #expect(dry.totals == ImportCounts(read: 3, inserted: 1, updated: 1, unchanged: 1, removed: 1))
        #expect(dry.committed == false)
        #expect(try t.snapshot().count == 4)  // the dry run wrote nothing
        let report = try await t.importText(edited, ImportOptions(network: "acme", replaceNetwork: true))
        #expect(report.totals == ImportCounts(read: 3, inserted: 1, updated: 1, unchanged: 1, removed: 1))
        #expect(report.replacedNetworks == ["acme"])
        let ids = try t.snapshot().map(\.id)
        #expect(ids == ["loc_acme_1", "loc_acme_3", "loc_acme_4", "loc_other_9"])  // other networks untouched
        #expect(try t.store.location(id: "loc_acme_1")?.name == "Alpha Renamed")
    }

    @Test func rowsWithoutIdGetStableIdsAndExactRepeatsAreRejected() async throws {
        let t = try TempStore()
        let text = "name,address,lat,lon\nA,1 Main,40.1234,-75.1234\nB,2 Main,40.2345,-75.2345\nA,1 Main,40.1234,-75.1234\n"
        let r1 = try await t.importText(text, ImportOptions(network: "n"))
        #expect(r1.totals == ImportCounts(read: 3, inserted: 2, rejected: 1))
        #expect(r1.files[0].issues.map(\.line) == [4])
        #expect(r1.files[0].rejectedByReason == ["duplicate_row": 1])
        let ids1 = try t.snapshot().map(\.externalId)
        let r2 = try await t.importText(text, ImportOptions(network: "n"))
        #expect(r2.totals == ImportCounts(read: 3, unchanged: 2, rejected: 1))
        #expect(try t.snapshot().map(\.externalId) == ids1)
        #expect(ids1.allSatisfy { $0.hasPrefix("h") && $0.count == 17 })
    }

    @Test func derivedIdsComeFromAddressAndPointNeverTheName() async throws {
        let t = try TempStore()
        // The same place under two names is one row; the same name at two places is two.
        let text = "name,address,lat,lon\nA,1 Main,40.1234,-75.1234\nA Renamed,1 Main,40.1234,-75.1234\nA,2 Main,40.2345,-75.2345\n"
        let r = try await t.importText(text, ImportOptions(network: "n"))
        #expect(r.totals == ImportCounts(read: 3, inserted: 2, rejected: 1))
        #expect(r.files[0].rejectedByReason == ["duplicate_row": 1])
        #expect(
            try t.snapshot().map(\.externalId).sorted()
                == [
                    StableId.derive(address: "1 Main", latitude: 40.1234, longitude: -75.1234),
                    StableId.derive(address: "2 Main", latitude: 40.2345, longitude: -75.2345),
                ].sorted())
    }

    @Test func duplicateIdsAndNearDuplicatesInsideAFile() async throws {
        let t = try TempStore()
        // Row 3 repeats id 1; row 4 is 5 m from row 2 (another id): a warning, kept.
        let text = "id,lat,lon\n1,40.0123,-75.0123\n2,41.0123,-76.0123\n1,40.5123,-75.5123\n4,41.012345,-76.0123\n"
        let r = try await t.importText(text, ImportOptions(network: "n"))
        #expect(r.totals == ImportCounts(read: 4, inserted: 3, rejected: 1, warned: 1))
        #expect(r.files[0].issues.map { "\($0.line) \($0.code)" } == ["4 duplicate_id", "5 near_duplicate"])
    }

    @Test func nearDuplicateOfALocationAlreadyInTheStore() async throws {
        let t = try TempStore()
        try await t.importText("id,lat,lon\nold,41.0123,-76.0123\n", ImportOptions(network: "n"))
        let r = try await t.importText("id,lat,lon\nnew,41.01233,-76.0123\n", ImportOptions(network: "n"))
        #expect(r.files[0].warningsByReason == ["near_existing": 1])
        #expect(r.totals.warned == 1)
        // Listing both again: the old one is in the file now, so it is an in-file near duplicate instead.
        let both = try await t.importText("id,lat,lon\nnew,41.01233,-76.0123\nold,41.0123,-76.0123\n", ImportOptions(network: "n"))
        #expect(both.files[0].warningsByReason == ["near_duplicate": 1])
        #expect(both.files[0].issues.map(\.line) == [3])
    }

    @Test func aFailureRollsBackEveryFileAndIsLogged() async throws {
        let t = try TempStore()
        try await t.importText(Self.csv, ImportOptions(network: "acme"))
        let before = try t.snapshot()
        let good = try t.file("good.csv", "id,lat,lon\n10,40.0,-75.0\n")
        let bad = try t.file("bad.csv", "id,lat,lon\n11,40.0,-75.0\n12,\"41.0,-75.0\n")
        await #expect(throws: ImportError.csv(file: "bad.csv", .unterminatedQuote(line: 3))) {
            try await t.importFiles([good, bad], ImportOptions(network: "acme"))
        }
        #expect(try t.snapshot() == before)
        let log = try t.store.imports(limit: 10)
        #expect(log.map(\.status) == ["failed", "committed"])
        #expect(log[0].fileName == "bad.csv")
        #expect(log[0].errorMessage?.contains("line 3") == true)
    }

    @Test func aFileWithoutCoordinatesIsRefusedNamingItsHeaders() async throws {
        let t = try TempStore()
        await #expect(throws: ImportError.mapping(file: "x.csv", .noCoordinateColumns(headers: ["name", "address"]))) {
            try await t.importText("name, address\nA,B\n", name: "x.csv", ImportOptions(network: "n"))
        }
    }

    @Test func semicolonFileWithBOMAndDecimalCommas() async throws {
        let t = try TempStore()
        let text = "\u{FEFF}id;name;lat;lon\r\n1;\"Café; Bar\";48,8566;2,3522\r\n"
        let r = try await t.importText(text, ImportOptions(network: "paris"), chunkSize: 3)
        #expect(r.files[0].delimiter == ";")
        #expect(r.files[0].hadByteOrderMark)
        #expect(r.files[0].encoding == "utf-8")
        let l = try #require(try t.store.location(id: "loc_paris_1"))
        #expect(l.name == "Café; Bar")
        #expect(l.coordinate == (try Coordinate(latitude: 48.8566, longitude: 2.3522)))
    }

    @Test func importLogHoldsCountsIssuesAndChecksum() async throws {
        let t = try TempStore()
        let text = "id,state,lat,lon\n1,MO,38.8123,90.7123\n2,MO,38.8123,-90.7123\n"
        let r = try await t.importText(text, name: "dq.csv", ImportOptions(network: "dq"))
        let id = try #require(r.files[0].importId)
        let record = try #require(try t.store.importRecord(id: id))
        #expect(record.status == "committed")
        #expect(record.counts == ImportCounts(read: 2, inserted: 1, rejected: 1))
        #expect(record.issues.map { "\($0.line) \($0.severity.rawValue) \($0.code)" } == ["2 rejected sign_flipped_longitude"])
        var sha = SHA256()
        sha.update(Array(text.utf8))
        #expect(record.sha256 == sha.finalizeHex())
        #expect(record.fileSize == Int64(text.utf8.count))
        #expect(record.fileName == "dq.csv")
    }

    @Test func progressIsReportedWithBytesAndRows() async throws {
        let t = try TempStore()
        var text = "id,lat,lon\n"
        for i in 0..<5000 { text += "\(i),\(30 + Double(i) / 1000),-90.5\n" }
        let importer = ChainImporter(store: t.store, options: ImportOptions(network: "p"))
        nonisolated(unsafe) var seen: [ImportProgress] = []
        importer.progress = { seen.append($0) }
        _ = try await importer.run([.bytes(Array(text.utf8), chunkSize: 4096)])
        let last = try #require(seen.last { $0.stage == nil })
        #expect(last.rows == 5000)
        #expect(last.fraction == 1)
        #expect(last.totalBytes == Int64(text.utf8.count))
        // After the rows, the slow tail of a large import is announced too.
        #expect(seen.compactMap(\.stage) == ["checking near duplicates", "updating the spatial index", "committing"])
        #expect(seen.last?.rows == 5000)
    }

    @Test func brandColumnSplitsIntoNetworksThroughAliases() async throws {
        let t = try TempStore()
        try t.store.upsertNetwork(Network(id: "sonic", name: "Sonic"))
        try t.store.addAlias("SONIC Drive In", networkId: "sonic")
        let text =
            "brand,id,lat,lon\nSONIC Drive In,1,35,-97\nSonic Drive-In,2,35.1,-97\nSONIC,3,35.2,-97\nSubway,4,35.3,-97\nSUBWAY,5,35.4,-97\n,6,35.5,-97\n"
        let r = try await t.importText(text, ImportOptions(network: nil, networkColumn: "brand"))
        #expect(r.files[0].rowsByNetwork == ["sonic": 3, "subway": 2])
        #expect(r.files[0].rejectedByReason == ["missing_network": 1])
        #expect(r.networksCreated == ["subway"])
        let strict = try await t.importText(
            "brand,id,lat,lon\nTaco Town,7,35,-97\n",
            ImportOptions(networkColumn: "brand", onlyKnownNetworks: true))
        #expect(strict.files[0].rejectedByReason == ["unknown_network": 1])
    }
}
