import ChainImport
import Foundation
import LocationStore
import SQLiteStore
import Testing

/// The import keeps how far a coarse point may be from its store.
@Suite struct PointUncertaintyImportTests {
    @Test("a 0.01-degree row keeps its uncertainty; a precise row beside it has none")
    func coarseRowKeepsItsUncertainty() async throws {
        let t = try TempStore()
        _ = try await t.importText(
            """
            id,name,lat,lon
            coarse,Starbucks Midtown,40.75,-73.99
            precise,Starbucks Herald Sq,40.749871,-73.988312

            """, ImportOptions(network: "starbucks"))
        let coarse = try #require(try t.store.location(id: "loc_starbucks_coarse"))
        let precise = try #require(try t.store.location(id: "loc_starbucks_precise"))
        let expected = CoordinatePrecision.errorMeters(decimals: 2, latitude: 40.75)
        #expect(abs((coarse.positionUncertaintyMeters ?? 0) - expected) < 0.001 && expected > 400, "\(expected)")
        #expect(precise.positionUncertaintyMeters == nil)
    }
}
