import ChainImport
import Foundation
import Geo
import LocationStore
import PostGISStore
import StoreOpening
import TestSupport
import Testing

/// Imports keep the same promises on both stores: the same report, the same rows, atomic and idempotent.
@Suite("Import conformance (SQLite and PostGIS)")
struct ImportConformanceTests {
    /// What must be equal between stores: everything a report says but timings.
    struct Comparable: Equatable {
        var files: [String]
        var counts: [ImportCounts]
        var rejected: [[String: Int]]
        var warnings: [[String: Int]]
        var issues: [[String]]
        var created: [String]

        init(_ r: ImportReport) {
            files = r.files.map(\.fileName)
            counts = r.files.map(\.counts)
            rejected = r.files.map(\.rejectedByReason)
            warnings = r.files.map(\.warningsByReason)
            issues = r.files.map { $0.issues.map { "\($0.line) \($0.severity.rawValue) \($0.code) \($0.message)" } }
            created = r.networksCreated.sorted()
        }
    }

    static func importing(_ store: any LocationStore, _ paths: [String], _ options: ImportOptions) async throws -> ImportReport {
        try await ChainImporter(for: store, options: options).run(try paths.map { try ImportInput.file($0) })
    }

    static func snapshot(_ store: any LocationStore) async throws -> [Location] {
        var all: [Location] = []
        try await store.forEachLocation(batchSize: 10_000) { all += $0 }
        return all.sorted { $0.id < $1.id }
    }

    @Test(
        "the shared chains give the same reports, logs and rows on both stores",
        .enabled(if: TestStore.kinds.contains(.postgis)), .needsSharedDatasets)
    func sameResultOnBothStores() async throws {
        let fast = try SharedDatasets.path("chain-fastfood-us-datafiniti/FastFoodRestaurants.csv")
        let libraries = SharedDatasets.bundled("us-public-libraries-imls/PLS_FY19_Outlet_pud19i.csv")
        var libraryOptions = ImportOptions(networkColumn: "FSCSKEY", networkNameColumn: "LIBNAME", category: "library")
        libraryOptions.networkNameWhere = ("C_OUT_TY", "CE")
        var results: [StoreKind: (reports: [Comparable], rows: [Location], networks: [NetworkSummary], log: [ImportIssue])] = [:]
        for kind in StoreKind.allCases {
            results[kind] = try await TestStore.with(kind) { store, _ in
                var reports: [Comparable] = []
                reports.append(Comparable(try await Self.importing(store, [fast], ImportOptions(networkColumn: "name", category: "fast-food"))))
                reports.append(Comparable(try await Self.importing(store, [libraries], libraryOptions)))
                // Again: every row unchanged.
                reports.append(Comparable(try await Self.importing(store, [fast], ImportOptions(networkColumn: "name", category: "fast-food"))))
                let log = try await store.importRecord(id: 1)?.issues ?? []
                return (reports, try await Self.snapshot(store), try await store.networks(), log)
            }
        }
        let sqlite = try #require(results[.sqlite])
        let postgis = try #require(results[.postgis])
        #expect(sqlite.reports == postgis.reports)
        #expect(sqlite.reports[2].counts.first?.unchanged == 9_946)
        #expect(sqlite.rows.count == postgis.rows.count && sqlite.rows.count > 27_000)
        #expect(sqlite.rows == postgis.rows, "the stores hold different rows")
        #expect(sqlite.networks == postgis.networks)
        #expect(sqlite.log.map { "\($0.line) \($0.code) \($0.message)" } == postgis.log.map { "\($0.line) \($0.code) \($0.message)" })
    }

    static let small = """
        id,name,address,lat,lon
        1,Alpha,1 Main St,40.712345,-74.001234
        2,Beta,2 Main St,40.722345,-74.011234
        3,Gamma,3 Main St,40.732345,-74.021234

        """

    @Test("re-import, replace, dry run and a failing file: the same outcome on each store", arguments: TestStore.kinds)
    func lifecycle(kind: StoreKind) async throws {
        try await TestStore.with(kind) { store, test in
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-lifecycle-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            func file(_ name: String, _ text: String) throws -> String {
                let path = dir.appendingPathComponent(name).path
                try Data(text.utf8).write(to: URL(fileURLWithPath: path))
                return path
            }
            let first = try await Self.importing(store, [try file("a.csv", Self.small)], ImportOptions(network: "acme"))
            #expect(first.totals == ImportCounts(read: 3, inserted: 3))
            let again = try await Self.importing(store, [try file("a.csv", Self.small)], ImportOptions(network: "acme"))
            #expect(again.totals == ImportCounts(read: 3, unchanged: 3))
            let before = try await Self.snapshot(store)
            let edited = "id,name,address,lat,lon\n1,Alpha Renamed,1 Main St,40.712345,-74.001234\n4,Delta,4 Main St,40.742345,-74.031234\n"
            let dry = try await Self.importing(store, [try file("b.csv", edited)], ImportOptions(network: "acme", dryRun: true, replaceNetwork: true))
            #expect(dry.totals == ImportCounts(read: 2, inserted: 1, updated: 1, removed: 2) && !dry.committed)
            #expect(try await Self.snapshot(store) == before, "a dry run wrote something")
            let good = try file("good.csv", "id,lat,lon\n10,40.100001,-75.000001\n")
            let bad = try file("bad.csv", "id,lat,lon\n11,40.200001,-75.000001\n12,\"41.0,-75.0\n")
            await #expect(throws: ImportError.self) { _ = try await Self.importing(store, [good, bad], ImportOptions(network: "acme")) }
            #expect(try await Self.snapshot(store) == before, "a failed import left rows behind")
            #expect(try await store.imports(limit: 1, before: nil).first?.status == "failed")
            let replaced = try await Self.importing(store, [try file("b.csv", edited)], ImportOptions(network: "acme", replaceNetwork: true))
            #expect(replaced.totals == ImportCounts(read: 2, inserted: 1, updated: 1, removed: 2) && replaced.replacedNetworks == ["acme"])
            #expect(try await store.locationIds(networkId: "acme") == ["loc_acme_1", "loc_acme_4"])
            #expect(try await store.verify() == [])
            _ = test
        }
    }
}
