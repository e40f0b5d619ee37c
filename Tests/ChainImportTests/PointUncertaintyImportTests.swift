import ChainImport
import Foundation
import Geo
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

/// A geocoder's street-level point keeps how far along the street the store may be.
@Suite struct GeocodedUncertaintyTests {
    @Test("a street-level geocode keeps half its answer's bounding box; a house-level one is precise")
    func streetAnswerKeepsItsBox() async throws {
        try await GeocoderStub.with { _, url in
            let t = try TempStore()
            var options = ImportOptions(network: "shops")
            options.geocoding = GeocodingOptions(settings: GeocoderTests.settings(url))
            _ = try await t.importText(
                """
                id,name,address,city,country,lat,lon
                1,Street,street 1 Broadway,New York,US,,
                2,House,at 40.7501 -73.9901 Broadway,New York,US,,

                """, options)
            let street = try #require(try t.store.location(id: "loc_shops_1"))
            let house = try #require(try t.store.location(id: "loc_shops_2"))
            let expected = Sphere.distance(lat1: 40.746, lon1: -73.994, lat2: 40.754, lon2: -73.986) / 2
            #expect(abs((street.positionUncertaintyMeters ?? 0) - expected) < 1, "\(String(describing: street.positionUncertaintyMeters))")
            #expect(house.positionUncertaintyMeters == nil, "the stub's house answers carry no box")
            // The cache keeps it: the same file again is answered from the cache, and its rows come out unchanged.
            let text = """
                id,name,address,city,country,lat,lon
                1,Street,street 1 Broadway,New York,US,,
                2,House,at 40.7501 -73.9901 Broadway,New York,US,,

                """
            let again = try await t.importText(text, options)
            #expect(again.files[0].geocoding?.fromCache == 2 && again.files[0].counts.unchanged == 2, "\(again.files[0].counts)")
        }
    }
}

@Suite struct GeocodeBoxTests {
    @Test("a bounding box is read defensively: four valid angles, as strings or numbers, or nothing")
    func boxesAreReadDefensively() {
        #expect(GeocodeAnswer.halfDiagonal(["40.0", "40.0", "-74.0", "-74.0"]) == 0)
        #expect(GeocodeAnswer.halfDiagonal([40.0, 40.01, -74.0, -73.99]).map { $0 > 600 && $0 < 800 } == true)
        #expect(GeocodeAnswer.halfDiagonal(["40", "41"]) == nil)
        #expect(GeocodeAnswer.halfDiagonal(["91", "92", "0", "1"]) == nil)
        #expect(GeocodeAnswer.halfDiagonal(["a", "b", "c", "d"]) == nil)
        #expect(GeocodeAnswer.halfDiagonal("40,41,-74,-73") == nil)
    }
}
