import ChainImport
import Foundation
import LocationStore
import Testing

/// A file can size its own regions: `radius_m` (a location's region radius) and `venue_radius_m` (a venue's size),
/// found by name or named by a flag or mapping, validated with a reason code.
@Suite("Radius and venue columns")
struct RadiusColumnTests {
    @Test("found by name, stored, and a bad value warned invalid_radius and ignored (the row kept)")
    func byName() async throws {
        let t = try TempStore()
        let text = """
            id,name,lat,lon,radius_m,venue_radius_m
            1,Gate,40.710123,-74.010456,150,
            2,Park,40.720789,-74.020321,,3000
            3,Odd,40.730654,-74.030987,-5,abc
            4,Huge,40.740246,-74.040135,60000,

            """
        let r = try await t.importText(text, ImportOptions(network: "n"))
        #expect(r.totals.inserted == 4)
        #expect(r.files[0].warningsByReason == ["invalid_radius": 3])
        #expect(r.files[0].issues.map(\.line) == [4, 4, 5])
        let rows = Dictionary(uniqueKeysWithValues: try t.snapshot().map { ($0.externalId, $0) })
        #expect(rows["1"]?.radiusMeters == 150 && rows["1"]?.venueRadiusMeters == nil)
        #expect(rows["2"]?.radiusMeters == nil && rows["2"]?.venueRadiusMeters == 3000)
        #expect(rows["3"]?.radiusMeters == nil && rows["3"]?.venueRadiusMeters == nil)
        #expect(rows["4"]?.radiusMeters == nil)
    }

    @Test("a column of another name is read when the options name it (--radius-column, --venue-radius-column)")
    func byOption() async throws {
        let t = try TempStore()
        var options = ImportOptions(network: "n")
        options.mapColumn(.radius, to: "Fence")
        options.mapColumn(.venueRadius, to: "Size")
        let r = try await t.importText("id,lat,lon,Fence,Size\n1,40.710123,-74.010456,80,\n2,40.720789,-74.020321,,1200\n", options)
        #expect(r.totals.inserted == 2 && r.totals.warned == 0)
        let rows = try t.snapshot()
        #expect(rows.map(\.radiusMeters) == [80, nil])
        #expect(rows.map(\.venueRadiusMeters) == [nil, 1200])
    }

    @Test("an unlisted bare 'radius' column is not taken for metres")
    func bareRadiusIsNotGuessed() async throws {
        let t = try TempStore()
        _ = try await t.importText("id,lat,lon,radius\n1,40.710123,-74.010456,5\n", ImportOptions(network: "n"))
        #expect(try t.snapshot().first?.radiusMeters == nil)
    }
}
