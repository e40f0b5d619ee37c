import Foundation
import Geo
import LocationStore
import SQLiteStore
import TestSupport
import Testing

/// `nearby` against a brute-force scan, and against SpatiaLite's own SQL on the same file.
@Suite(.cpuHeavy) struct NearbyTests {
    @Test(arguments: 0..<2)
    func matchesBruteForce(part: Int) throws {
        let store = try SQLiteLocationStore(path: bulkStorePath, readOnly: true)
        var rng = SeededRandom(seed: 500 + UInt64(part))
        var tiesSeen = 0
        for q in 0..<TestScale.cases(120) {
            let query = randomQuery(&rng)
            let got = try store.nearby(query)
            let expected = bruteForceNearby(query, in: bulkLocations)
            #expect(got.map(\.location.id) == expected.map(\.id), "query \(q): \(query)")
            for (g, e) in zip(got, expected) { #expect(abs(g.distanceMeters - e.meters) < 1e-6) }
            for i in got.indices.dropFirst() where got[i].distanceMeters == got[i - 1].distanceMeters { tiesSeen += 1 }
        }
        #expect(tiesSeen > 0, "the data has duplicate coordinates; some answers must contain ties")
    }

    @Test(arguments: 0..<2)
    func spatiaLiteSQLAgrees(part: Int) throws {
        let store = try SQLiteLocationStore(path: bulkStorePath, readOnly: true)
        var rng = SeededRandom(seed: 900 + UInt64(part))
        for q in 0..<TestScale.cases(80) {
            var query = randomQuery(&rng)
            query.radiusMeters = min(query.radiusMeters, 50_000)
            let ours = try store.nearby(query)
            // Great-circle distances in SpatiaLite (ST_Distance(..., 0)) order exactly as haversine does.
            let sphere = Array(try store.nearbyViaSpatiaLiteSQL(query).filter { $0.meters <= query.radiusMeters * 1.0001 }.prefix(ours.count))
            #expect(sphere.map(\.id) == ours.map(\.location.id), "query \(q): \(query)")
            // On the ellipsoid (ST_Distance(..., 1)) distances differ from the sphere by at most about 0.6 %.
            let ellipsoid = Dictionary(
                try store.nearbyViaSpatiaLiteSQL(query, useEllipsoid: true).map { ($0.id, $0.meters) }, uniquingKeysWith: { a, _ in a })
            for hit in ours {
                let e = try #require(ellipsoid[hit.location.id])
                #expect(abs(e - hit.distanceMeters) <= max(0.01, hit.distanceMeters * 0.007))
            }
            let rtree = try store.nearbyViaRTree(query)
            #expect(rtree.map(\.id) == ours.map(\.location.id))
        }
    }

    @Test func fileIsAValidSpatiaLiteDatabase() throws {
        let store = try SQLiteLocationStore(path: bulkStorePath)
        #expect(try store.verify().isEmpty)
        let stats = try store.stats()
        #expect(stats.locationCount == bulkLocations.count)
        #expect(stats.networkCounts.reduce(0) { $0 + $1.count } == bulkLocations.count)
        let lats = bulkLocations.map(\.coordinate.latitude)
        #expect(stats.bounds?.minLatitude == lats.min() && stats.bounds?.maxLatitude == lats.max())
    }

    @Test func iterationVisitsEveryLocationOnce() throws {
        let store = try SQLiteLocationStore(path: bulkStorePath, readOnly: true)
        var seen = Set<String>()
        var batches = 0
        try store.forEachLocation(batchSize: 7_000) { batch in
            batches += 1
            #expect(batch.count <= 7_000)
            for l in batch { seen.insert(l.id) }
        }
        #expect(seen.count == bulkLocations.count && batches == 15)
        #expect(seen == Set(bulkLocations.map(\.id)))
        // The narrow index read returns the same fields as whole locations do.
        var records: [IndexRecord] = []
        try store.forEachIndexRecord(batchSize: 30_000) { records.append(contentsOf: $0) }
        var whole: [IndexRecord] = []
        try store.forEachLocation(batchSize: 30_000) { whole.append(contentsOf: $0.map(IndexRecord.init)) }
        #expect(records == whole && records.count == bulkLocations.count)
    }

    @Test func edgeQueries() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let store = try SQLiteLocationStore.create(path: dir.path("edge.sqlite"))
        try store.upsertNetwork(Network(id: "n", name: "N"))
        let points = [(0.0, 179.9999), (0.0, -179.9999), (89.9999, 0.0), (89.9999, 180.0), (-0.000001, 0.000001), (0.000001, -0.000001)]
        _ = try store.upsert(
            points.enumerated().map {
                Location(
                    networkId: "n", externalId: "\($0.offset)", name: "p\($0.offset)",
                    coordinate: Coordinate(uncheckedLatitude: $0.element.0, longitude: $0.element.1))
            })
        let across = try store.nearby(NearbyQuery(center: Coordinate(uncheckedLatitude: 0, longitude: 180), radiusMeters: 1_000, limit: 10))
        #expect(Set(across.map(\.location.externalId)) == ["0", "1"])
        let pole = try store.nearby(NearbyQuery(center: Coordinate(uncheckedLatitude: 90, longitude: 0), radiusMeters: 1_000, limit: 10))
        #expect(Set(pole.map(\.location.externalId)) == ["2", "3"])
        let origin = try store.nearby(NearbyQuery(center: Coordinate(uncheckedLatitude: 0, longitude: 0), radiusMeters: 10, limit: 10))
        #expect(Set(origin.map(\.location.externalId)) == ["4", "5"])
        #expect(try store.nearby(NearbyQuery(center: Coordinate(uncheckedLatitude: 0, longitude: 0), radiusMeters: 10, limit: 0)).isEmpty)
        #expect(
            try store.nearby(NearbyQuery(center: Coordinate(uncheckedLatitude: 0, longitude: 0), radiusMeters: 10, limit: 5, networks: [])).isEmpty)
    }
}
