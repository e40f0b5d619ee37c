import ChainImport
import Foundation
import LocationStore
import PostGISStore
import StoreOpening
import Testing

/// The rows a careless or hostile file holds are judged alike on both stores: the same rejections and warnings, the
/// same rows kept, and the fallback network used the same way. (A NUL used to fail a PostGIS import's COPY outright.)
@Suite("Hardened import conformance (SQLite and PostGIS)")
struct HardeningConformanceTests {
    static var file: [UInt8] {
        var bytes = Array("id,brand,name,address,lat,lon\n".utf8)
        bytes += Array("1,Foo Mart,Alpha Café,1 Main St,40.112345,-74.112345\n".utf8)  // UTF-8 text
        bytes += Array("2,,Beta,2 Main St,40.212345,-74.212345\n".utf8)  // falls back to acme
        bytes += Array("3,Foo Mart,Gamma,3 Main St,40,3,-74,3\n".utf8)  // decimal commas: field_count
        bytes += Array("4,Foo Mart,De\u{0}lta,4 Main St,40.412345,-74.412345\n".utf8)  // nul_byte
        bytes += Array("5,Foo Mart,\(String(repeating: "E", count: 201)),5 Main St,40.512345,-74.512345\n".utf8)  // field_too_long
        bytes += Array("6,Foo Mart,\(String(repeating: "F", count: 600)),6 Main St,40.612345,-74.612345\n".utf8)  // line_too_long
        bytes += Array("7,\(String(repeating: "x", count: 150)),Eta,7 Main St,40.712345,-74.712345\n".utf8)  // network id too long
        bytes += Array("8,Foo Mart,Th".utf8) + [0xFF] + Array("eta,8 Main St,40.812345,-74.812345\n".utf8)  // invalid_utf8
        bytes += Array("9,Bar Shop,Iota,9 Main St,0x1p4,-74.912345\n".utf8)  // hex float
        bytes += Array("10,Bar Shop,Kappa,10 Main St,41.012345,-75.012345,,\n".utf8)  // blank extras: fine
        bytes += Array("11,Bar Shop,Lambda,11 Main St,41.112345\n".utf8)  // short, lon missing
        return bytes
    }

    @Test("the same verdicts, rows and networks on each store", arguments: TestStore.kinds)
    func sameVerdicts(kind: StoreKind) async throws {
        try await TestStore.with(kind) { store, _ in
            var options = ImportOptions(network: "acme", networkColumn: "brand")
            options.maxLineBytes = 512
            let report = try await ChainImporter(for: store, options: options).run([.bytes(Self.file, name: "h.csv", chunkSize: 97)])
            let f = report.files[0]
            #expect(f.counts == ImportCounts(read: 11, inserted: 4, rejected: 7, warned: 1))
            #expect(f.rejectedByReason == ["field_count": 2, "nul_byte": 1, "field_too_long": 2, "line_too_long": 1, "unparseable_coordinates": 1])
            #expect(f.warningsByReason == ["invalid_utf8": 1])
            #expect(f.rowsByNetwork == ["acme": 1, "foo-mart": 2, "bar-shop": 1])
            #expect(f.encoding == "utf-8")
            let rows = try await ImportConformanceTests.snapshot(store)
            #expect(rows.map(\.id) == ["loc_acme_2", "loc_bar-shop_10", "loc_foo-mart_1", "loc_foo-mart_8"])
            #expect(rows.first { $0.id == "loc_foo-mart_8" }?.name == "Th\u{FFFD}eta")
            #expect(try await store.networks().map(\.network.id).sorted() == ["acme", "bar-shop", "foo-mart"])
            #expect(try await store.verify() == [])
        }
    }

    /// 3,000 rows on one point, and 2,000 more 3 m away that a second file lists with 1,000 of the first: each row gets
    /// one near-duplicate warning (not one per earlier row), the log keeps `logIssueLimitPerReason` of each reason while
    /// the counts stay exact, and nothing grows with the number of pairs (which used to be 4.5 million here).
    @Test("a pile-up on one point costs per row, not per pair", arguments: TestStore.kinds)
    func pileUp(kind: StoreKind) async throws {
        var first = "id,lat,lon\n"
        for i in 0..<3_000 { first += "\(i),40.712345,-74.012345\n" }
        var second = "id,lat,lon\n"
        for i in 0..<1_000 { second += "\(i),40.712345,-74.012345\n" }
        for i in 3_000..<5_000 { second += "\(i),40.712372,-74.012345\n" }
        try await TestStore.with(kind) { store, _ in
            var options = ImportOptions(network: "pile")
            options.logIssueLimitPerReason = 500
            let one = try await ChainImporter(for: store, options: options).run([.bytes(Array(first.utf8), name: "one.csv")]).files[0]
            #expect(one.counts == ImportCounts(read: 3_000, inserted: 3_000, warned: 2_999))
            #expect(one.warningsByReason == ["near_duplicate": 2_999])
            let sample = try #require(one.issues.last)
            #expect(sample.message.contains("0 m from line") && sample.message.contains("or more rows of this import within 10 m"))
            let oneId = try #require(one.importId)
            let logged = try #require(try await store.importRecord(id: oneId))
            #expect(logged.issues.count == 500)
            // The second file lists 1,000 of the pile (2,000 stay unlisted) and a new pile 3 m away.
            let two = try await ChainImporter(for: store, options: options).run([.bytes(Array(second.utf8), name: "two.csv")]).files[0]
            #expect(two.counts.read == 3_000 && two.counts.unchanged == 1_000 && two.counts.inserted == 2_000)
            // Every row but the first is near earlier rows of the file. Rows are also near the 2,000 stored ones the file
            // does not list; in a pile-up each store looks at the first 4 locations it finds, so how many rows say so
            // differs by store — but never more than one warning of each reason per row.
            #expect((two.warningsByReason["near_duplicate"] ?? 0) == 2_999)
            #expect((two.warningsByReason["near_existing"] ?? 0) <= 3_000)
            #expect(two.counts.warned >= 2_999)
            let twoId = try #require(two.importId)
            let logged2 = try #require(try await store.importRecord(id: twoId))
            #expect(logged2.issues.count <= 1_000)
            #expect(try await store.verify() == [])
        }
    }
}
