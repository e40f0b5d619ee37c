import ChainImport
import Foundation
import Geo
import LocationStore
import Testing

/// A file's own radii, venue sizes and address parts reach both stores alike, and a look-alike brand is refused alike.
@Suite("Radius columns and confusable names (SQLite and PostGIS)")
struct RadiusColumnConformanceTests {
    static let file = """
        id,brand,address,city,state,zip,lat,lon,radius_m,venue_radius_m
        1,Costco,450 10th St,San Francisco,CA,94103,37.770012,-122.413012,150,
        2,Costco,1 Park Way,Anaheim,CA,92802,33.812345,-117.918765,,3000
        3,Costco,2 Main St,Reno,NV,89501,39.529876,-119.813456,-5,
        4,Соstco,3 Main St,Reno,NV,89501,39.531234,-119.815678,,

        """

    @Test("radius_m and venue_radius_m stored, a bad one warned invalid_radius, a Cyrillic look-alike rejected", arguments: TestStore.kinds)
    func sameOnBothStores(kind: StoreKind) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-radius-\(UUID().uuidString).csv").path
        try Data(Self.file.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await TestStore.with(kind) { store, _ in
            let report = try await ImportConformanceTests.importing(store, [path], ImportOptions(networkColumn: "brand"))
            #expect(report.totals.inserted == 3)
            #expect(report.files[0].warningsByReason == ["invalid_radius": 1])
            #expect(report.files[0].rejectedByReason == ["confusable_network": 1])
            let rows = Dictionary(uniqueKeysWithValues: try await ImportConformanceTests.snapshot(store).map { ($0.externalId, $0) })
            #expect(rows["1"]?.radiusMeters == 150 && rows["2"]?.venueRadiusMeters == 3000 && rows["3"]?.radiusMeters == nil)
            var records: [IndexRecord] = []
            try await store.forEachIndexRecord(batchSize: 10) { records += $0 }
            #expect(records.first { $0.id == "loc_costco_1" }?.address == "450 10th St, San Francisco, CA 94103")
        }
    }
}
