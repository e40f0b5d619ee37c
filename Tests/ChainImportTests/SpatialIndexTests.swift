import ChainImport
import Foundation
import Geo
import LocationStore
import SQLiteStore
import SyntheticData
import Testing

/// A bulk import suspends SpatiaLite's per-row triggers and brings the R*Tree in step at the end.
/// These tests hold it to SpatiaLite's own check and to searches through the R*Tree itself.
@Suite("Spatial index after bulk imports")
struct SpatialIndexTests {
    /// The ids the R*Tree search and the geohash search find around a few points must agree.
    func expectIndexesAgree(_ store: SQLiteLocationStore, around points: [Coordinate], sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try store.verify() == [], sourceLocation: sourceLocation)
        for p in points {
            let q = NearbyQuery(center: p, radiusMeters: 300_000, limit: 50)
            let viaGeohash = try store.nearby(q).map(\.location.id)
            let viaRTree = try store.nearbyViaRTree(q).map(\.id)
            #expect(viaRTree == viaGeohash, sourceLocation: sourceLocation)
            #expect(!viaGeohash.isEmpty, sourceLocation: sourceLocation)
        }
    }

    @Test func insertsUpdatesAndLaterWritesKeepTheRTreeInStep() async throws {
        let t = try TempStore()
        // A network with locations before the import (the probe path) and new ones (the insert-only path).
        try await t.importText("id,name,lat,lon\n1,Alpha,40.0,-75.0\n2,Beta,41.0,-76.0\n", ImportOptions(network: "acme-market"))
        let big = t.directory.appendingPathComponent("chain.csv").path
        try SyntheticChainCSV(rows: 3_000, seed: 11).write(to: big)
        let first = try await t.importFiles([big], ImportOptions(networkColumn: "brand"))
        #expect(first.totals.read == 3_000 && first.totals.inserted + first.totals.updated + first.totals.rejected == 3_000)
        #expect(first.totals.inserted > 2_900)
        let probes = [
            Coordinate(uncheckedLatitude: 40.0, longitude: -75.0), Coordinate(uncheckedLatitude: 34.0, longitude: -90.0),
            Coordinate(uncheckedLatitude: 44.0, longitude: -110.0),
        ]
        try expectIndexesAgree(t.store, around: probes)

        // Move the first 500 rows 0.5° north (same ids): updates, whose old R*Tree boxes must go.
        let text = try String(contentsOfFile: big, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var moved: [Coordinate] = []
        for i in 1...500 {
            var fields = lines[i].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let lat = Double(fields[fields.count - 2])! + 0.5
            fields[fields.count - 2] = String(format: "%.6f", lat)
            moved.append(Coordinate(uncheckedLatitude: lat, longitude: Double(fields[fields.count - 1])!))
            lines[i] = fields.joined(separator: ",")
        }
        let second = try await t.importText(lines.joined(separator: "\n"), name: "moved.csv", ImportOptions(networkColumn: "brand"))
        #expect(second.totals.updated + second.totals.rejected >= 450)  // a moved row may leave its state's box
        try expectIndexesAgree(t.store, around: probes + Array(moved.prefix(3)))

        // After the import the triggers are back: an ordinary write moves the point in the R*Tree too.
        var location = try #require(try t.store.location(id: "loc_acme-market_1"))
        location.coordinate = Coordinate(uncheckedLatitude: 47.5, longitude: -122.3)
        _ = try t.store.upsert([location])
        try expectIndexesAgree(t.store, around: [location.coordinate])
        #expect(try t.store.nearbyViaRTree(NearbyQuery(center: location.coordinate, radiusMeters: 10, limit: 1)).map(\.id) == [location.id])
    }

    /// A first load builds the R*Tree packed (written straight into its shadow tables): node-boundary sizes
    /// (the rtree module holds 51 cells per node here), then an incremental import and an ordinary write on top.
    @Test(arguments: [0, 1, 50, 51, 52, 2_601, 2_602, 5_000])
    func packedFirstLoadIsAValidRTree(rows: Int) async throws {
        let t = try TempStore()
        let file = t.directory.appendingPathComponent("chain.csv").path
        try SyntheticChainCSV(rows: rows, seed: UInt64(rows) + 3).write(to: file)
        // A file of only its header imports nothing (and creates no network); the store stays valid all the same.
        let report = try? await t.importFiles([file], ImportOptions(networkColumn: "brand"))
        #expect((report == nil) == (rows == 0))
        #expect(try t.store.verify() == [])
        let probes = [Coordinate(uncheckedLatitude: 40.0, longitude: -75.0), Coordinate(uncheckedLatitude: 34.0, longitude: -90.0)]
        for p in probes {
            let q = NearbyQuery(center: p, radiusMeters: 2_000_000, limit: 60)
            #expect(try t.store.nearbyViaRTree(q).map(\.id) == t.store.nearby(q).map(\.location.id))
        }
        // A small import on top goes through the virtual table, row by row.
        let more = "id,name,lat,lon\n1,Alpha,40.0,-75.0\n2,Beta,41.0,-76.0\n"
        try await t.importText(more, ImportOptions(network: "acme-extra"))
        #expect(try t.store.verify() == [])
        #expect((report?.totals.inserted ?? 0) + (report?.totals.rejected ?? 0) == rows)
        if rows > 0 {
            #expect(
                try t.store.nearbyViaRTree(NearbyQuery(center: Coordinate(uncheckedLatitude: 41.0, longitude: -76.0), radiusMeters: 5, limit: 1))
                    .map(\.id) == ["loc_acme-extra_2"])
        }
    }

    @Test func aFailedImportLeavesTriggersAndIndexAsTheyWere() async throws {
        let t = try TempStore()
        try await t.importText("id,name,lat,lon\n1,Alpha,40.0,-75.0\n", ImportOptions(network: "acme-market"))
        let before = try t.snapshot()
        let good = t.directory.appendingPathComponent("good.csv").path
        try SyntheticChainCSV(rows: 1_000, seed: 5).write(to: good)
        let bad = try t.file("bad.csv", "name,city\nNo coordinates,Nowhere\n")
        await #expect(throws: ImportError.self) { try await t.importFiles([good, bad], ImportOptions(networkColumn: "brand")) }
        #expect(try t.snapshot() == before)
        #expect(try t.store.verify() == [])
        var location = try #require(try t.store.location(id: "loc_acme-market_1"))
        location.coordinate = Coordinate(uncheckedLatitude: 30.3, longitude: -97.7)
        _ = try t.store.upsert([location])
        #expect(try t.store.verify() == [])
        #expect(try t.store.nearbyViaRTree(NearbyQuery(center: location.coordinate, radiusMeters: 10, limit: 1)).map(\.id) == [location.id])
    }
}
