import ChainImport
import Foundation
import Geo
import LocationStore
import SQLiteStore
import TestSupport
import Testing

/// Every chain file of ../shared/datasets imported as it is, with each documented defect asserted
/// by exact count. The expected figures were derived independently (Python's csv module over the
/// raw files, haversine for the 10 m pairs) and agree with the SOURCE.md notes where those give one.
@Suite("Shared chain datasets", .serialized, .needsSharedDatasets)
struct DatasetTests {
    @Test func fastFoodSignFlipsWrongContinentsZipsAndNearDuplicates() async throws {
        let path = try SharedDatasets.path("chain-fastfood-us-datafiniti/FastFoodRestaurants.csv")
        let t = try TempStore()
        // The network rules on their own (slugs and aliases); BrandCatalogueDatasetTests has the catalogue's merges.
        var options = ImportOptions(networkColumn: "name", category: "fast-food")
        options.usesBrandCatalogue = false
        let r = try await t.importFiles([path], options)
        let f = r.files[0]
        #expect(f.encoding == "utf-8")
        #expect(f.counts == ImportCounts(read: 10_000, inserted: 9_946, rejected: 54, warned: 572))
        // 46 positive longitudes (SOURCE.md): 29 Dairy Queens whose flipped point is in their own state,
        // 17 geocoded to another continent; plus 8 negative-longitude rows abroad (Spain, Mexico).
        #expect(f.rejectedByReason == ["sign_flipped_longitude": 29, "outside_country": 25])
        // 521 four-digit ZIPs, 4 of them on rejected rows; 15 rows within 10 m of a same-brand row;
        // 41 rows whose point is in the US but not in the state they name (e.g. Pearl MS filed as AL); 2 rows with
        // two-decimal coordinates (lines 8,091 and 9,170), too few for a file diagnosis.
        #expect(f.warningsByReason == ["zip_leading_zero": 517, "near_duplicate": 15, "outside_region": 41, "coarse_coordinates": 2])
        #expect(f.coordinatePrecision == nil)
        let importId = try #require(f.importId)
        let log = try #require(try t.store.importRecord(id: importId))
        let flipped = log.issues.filter { $0.code == "sign_flipped_longitude" }
        #expect(flipped.count == 29)
        #expect(flipped.first?.line == 620)  // Dairy Queen, O Fallon MO, at (38.79998936, 90.73405594)
        #expect(flipped.first?.externalId == "us/mo/ofallon/9695veteransmemorialpkwy/-1721138121")
        #expect(log.issues.first { $0.line == 9_435 }?.code == "outside_country")  // McDonald's, Irving TX, in Paris
        #expect(try t.store.location(id: "loc_mcdonalds_us/ny/massena/324mainst/-1161002137")?.postalCode == "13662")

        // SONIC spellings: case and punctuation variants merge by themselves, "Sonic" needs an alias.
        let counts = Dictionary(uniqueKeysWithValues: try t.store.networks().map { ($0.network.id, $0.locationCount) })
        #expect(counts["sonic-drive-in"] == 226 + 126 + 21 + 8 + 4 + 1)
        #expect(counts["sonic"] == 12)
        #expect(counts["subway"] == 322 + 84 - 2)  // two Subway rows are among the rejected
        #expect(counts["chick-fil-a"] == 100 + 35 + 11)
    }

    @Test func fastFoodAliasMergesSonicAndReimportIsUnchanged() async throws {
        let path = try SharedDatasets.path("chain-fastfood-us-datafiniti/FastFoodRestaurants.csv")
        let t = try TempStore()
        try t.store.upsertNetwork(Network(id: "sonic", name: "Sonic Drive-In", category: "fast-food"))
        for spelling in ["SONIC Drive In", "Sonic"] { try t.store.addAlias(spelling, networkId: "sonic") }
        let first = try await t.importFiles([path], ImportOptions(networkColumn: "name"))
        #expect(first.files[0].rowsByNetwork["sonic"] == 226 + 126 + 21 + 12 + 8 + 4 + 1)
        #expect(first.files[0].rowsByNetwork["sonic-drive-in-trailer"] == 1)
        let before = try t.snapshot()
        let again = try await t.importFiles([path], ImportOptions(networkColumn: "name"))
        #expect(again.totals == ImportCounts(read: 10_000, unchanged: 9_946, rejected: 54, warned: 572))
        #expect(again.networksCreated.isEmpty)
        #expect(try t.snapshot() == before)
    }

    @Test func targetIsLatin1AndCafeDecodes() async throws {
        let path = try SharedDatasets.path("chain-target-us/target.csv")
        let t = try TempStore()
        let r = try await t.importFiles([path], ImportOptions(network: "target"))
        let f = r.files[0]
        #expect(f.encoding == "iso-8859-1")
        #expect(f.counts == ImportCounts(read: 1_829, inserted: 1_829))
        #expect(f.columns["id"] == "ID" && f.columns["latitude"] == "Address.Latitude" && f.columns["region"] == "Address.Subdivision")
        #expect(try t.store.location(id: "loc_target_2153")?.name == "Oxford")
        #expect(try t.store.location(id: "loc_target_2153")?.postalCode == "36203-3459")

        // The only non-ASCII byte is 0xE9 in `Café` inside AllCapability, 427 times (SOURCE.md).
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var detector = EncodingDetector()
        bytes.withUnsafeBufferPointer { detector.scan($0) }
        detector.finish()
        #expect(detector.firstInvalidOffset == 1_453)
        let records = try CSVTokenizer.records(bytes)
        let column = try #require(records[0].strings.firstIndex(of: "AllCapability"))
        let values = records.dropFirst().map { detector.decode($0.field(column)) }
        #expect(values[0] == "['CVS pharmacy', 'Café', 'Mobile Kiosk', 'Starbucks', 'Wine & Beer Available']")
        #expect(values.reduce(0) { $0 + $1.components(separatedBy: "Café").count - 1 } == 427)
        #expect(!values.contains { $0.contains("\u{FFFD}") || $0.contains("Ã") })
    }

    @Test func chipotleCRLFWithoutFinalNewline() async throws {
        let path = try SharedDatasets.path("chain-chipotle-us/chipotle_stores.csv")
        let raw = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(raw.last != 0x0A)  // the defect under test is really there
        let t = try TempStore()
        let r = try await t.importFiles([path], ImportOptions(network: "chipotle"))
        #expect(r.files[0].counts == ImportCounts(read: 2_629, inserted: 2_629, warned: 1))
        #expect(r.files[0].warningsByReason == ["near_duplicate": 1])
        #expect(r.files[0].issues.map(\.line) == [2_182])
        // The last row, after which the file simply ends, is imported with the right coordinates.
        let last = try #require(try t.snapshot().first { $0.address == "1508 Dell Range Blvd Cheyenne, WY 82009 US" })
        #expect(last.coordinate == (try Coordinate(latitude: 41.16071801, longitude: -104.805699)))
        #expect(last.region == "Wyoming")
        // No ZIP column: the ZIP comes out of the one-line address.
        #expect(last.postalCode == "82009")
        #expect(try t.snapshot().allSatisfy { $0.postalCode?.count == 5 })
    }

    @Test func costcoLeadingSpacesDuplicateRowAndBackslash() async throws {
        let path = try SharedDatasets.path("chain-costco-us/costcos-geocoded.csv")
        let t = try TempStore()
        let r = try await t.importFiles([path], ImportOptions(network: "costco"))
        let f = r.files[0]
        #expect(f.headers == ["Address", "City", "State", "Zip Code", "Latitude", "Longitude"])
        #expect(f.counts == ImportCounts(read: 417, inserted: 416, rejected: 1, warned: 2))
        #expect(f.rejectedByReason == ["duplicate_row": 1])
        #expect(f.issues.map { "\($0.line) \($0.code)" } == ["235 outside_region", "237 zip_leading_zero", "401 duplicate_row"])
        let all = try t.snapshot()
        #expect(all.contains { $0.city == "Huntsville" })
        #expect(all.contains { $0.city == "Coeur D\\'Alene" })
        #expect(all.filter { $0.city == "Sequim" }.count == 1)
        // No name column: no names stored (each is served with the network's name of the day), ids from the content.
        #expect(all.allSatisfy { $0.name.isEmpty && $0.region != nil })
    }

    @Test func imlsWindows1252SystemsAsNetworks() async throws {
        let path = try SharedDatasets.path("chain-us-public-libraries-imls/PLS_FY19_Outlet_pud19i.csv")
        let t = try TempStore()
        var options = ImportOptions(networkColumn: "FSCSKEY", networkNameColumn: "LIBNAME", category: "library")
        options.networkNameWhere = ("C_OUT_TY", "CE")
        let r = try await t.importFiles([path], options)
        let f = r.files[0]
        #expect(f.encoding == "windows-1252")
        #expect(f.columns["longitude"] == "LONGITUD" && f.columns["id"] == "FSCSKEY + FSCS_SEQ")
        // Guam, Saipan and American Samoa are east of 180° or south of the equator and still valid.
        #expect(f.counts == ImportCounts(read: 17_496, inserted: 17_496, warned: 589))
        // One warning per row near earlier ones (naming the nearest and how many more): every warned row.
        #expect(f.warningsByReason == ["near_duplicate": 589])
        #expect(r.networksCreated.count == 9_260)
        let all = try t.snapshot()
        #expect(all.filter { $0.name == "DELTA CO PLD – DELTA PUBLIC LIBRARY" }.count == 1)
        #expect(all.filter { $0.address == "710 W CÉSAR CHÁVEZ ST" }.count == 1)
        #expect(!all.contains { $0.name.contains("\u{FFFD}") || ($0.address ?? "").contains("\u{FFFD}") })
        let networks = Dictionary(uniqueKeysWithValues: try t.store.networks().map { ($0.network.id, $0) })
        #expect(networks["ny0778"]?.locationCount == 94)
        #expect(networks["ny0778"]?.network.name == "STEPHEN A. SCHWARZMAN BUILDING")  // the CE outlet, not the first branch
        #expect(networks["il0098"]?.network.name == "CHICAGO PUBLIC LIBRARY")
        #expect(networks["ca0062"]?.locationCount == 88)
        #expect(networks["il0098"]?.network.category == "library")
    }
}
