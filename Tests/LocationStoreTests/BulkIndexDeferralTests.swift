import Foundation
import Geo
import LocationStore
import SQLiteStore
import SyntheticData
import Testing

/// A large bulk import drops the geohash index after its first inserts and builds it again at the end
/// (`beginBulkImport(expectedRows:deferIndexAfterInserts:)`). These tests lower the thresholds so that a few
/// thousand rows take that path, and check the store against the same rows loaded the ordinary way.
@Suite("Bulk import: the geohash index built after the load")
struct BulkIndexDeferralTests {
    static let synthetic = SyntheticLocations(count: 3_000, seed: 77, networkCount: 6, clusterCount: 40)
    static let locations = Array(synthetic)
    static let existing = 300

    private func storeWithExistingRows(_ dir: TemporaryDirectory) throws -> SQLiteLocationStore {
        let store = try SQLiteLocationStore.create(path: dir.path("s.sqlite"))
        for n in Self.synthetic.networks { try store.upsertNetwork(n) }
        _ = try store.upsert(Array(Self.locations.prefix(Self.existing)))
        return store
    }

    private func missingGeohashIndex(_ store: SQLiteLocationStore) throws -> Bool {
        try store.verify().contains("index locations_by_geohash is missing")
    }

    @Test func aLargeLoadRebuildsTheIndexAndNearbyMatchesBruteForce() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let store = try storeWithExistingRows(dir)
        let stamp = SQLiteLocationStore.storeTimestamp(Date())
        var droppedDuringLoad = false
        try await store.transaction {
            try store.beginBulkImport(expectedRows: 10_000, deferIndexAfterInserts: 500)
            defer { store.abandonBulkImport() }
            for l in Self.locations.dropFirst(Self.existing) { #expect(try store.bulkUpsert(l, timestamp: stamp) == .inserted) }
            droppedDuringLoad = try missingGeohashIndex(store)
            try store.finishBulkImport()
        }
        #expect(droppedDuringLoad, "the thresholds are met, so the index must have been dropped during the load")
        #expect(try store.verify().isEmpty)
        #expect(try store.stats().locationCount == Self.locations.count)
        var rng = SeededRandom(seed: 31)
        for q in 0..<200 {
            let base = Self.locations[Int.random(in: 0..<Self.locations.count, using: &rng)].coordinate
            let query = NearbyQuery(center: base, radiusMeters: Double.random(in: 200...80_000, using: &rng), limit: 20)
            let expected = bruteForceNearby(query, in: Self.locations)
            #expect(try store.nearby(query).map(\.location.id) == expected.map(\.id), "query \(q)")
        }
    }

    @Test func aFailedLoadLeavesTheIndexAndRowsAsTheyWere() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let store = try storeWithExistingRows(dir)
        let stamp = SQLiteLocationStore.storeTimestamp(Date())
        struct Interrupted: Error {}
        var droppedBeforeFailure = false
        await #expect(throws: Interrupted.self) {
            try await store.transaction {
                try store.beginBulkImport(expectedRows: 10_000, deferIndexAfterInserts: 500)
                defer { store.abandonBulkImport() }
                for l in Self.locations.dropFirst(Self.existing).prefix(1_000) { _ = try store.bulkUpsert(l, timestamp: stamp) }
                droppedBeforeFailure = try missingGeohashIndex(store)
                throw Interrupted()
            }
        }
        #expect(droppedBeforeFailure)
        #expect(try store.verify().isEmpty)
        #expect(try store.stats().locationCount == Self.existing)
        let query = NearbyQuery(center: Self.locations[0].coordinate, radiusMeters: 50_000, limit: 20)
        let existing = Array(Self.locations.prefix(Self.existing))
        #expect(try store.nearby(query).map(\.location.id) == bruteForceNearby(query, in: existing).map(\.id))
    }

    @Test func aReimportOrASmallLoadKeepsTheIndex() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let store = try storeWithExistingRows(dir)
        let stamp = SQLiteLocationStore.storeTimestamp(Date())
        // Every row unchanged: nothing is inserted, so the index stays whatever the expected size.
        var missing = true
        try await store.transaction {
            try store.beginBulkImport(expectedRows: 10_000, deferIndexAfterInserts: 1)
            defer { store.abandonBulkImport() }
            for l in Self.locations.prefix(Self.existing) { #expect(try store.bulkUpsert(l, timestamp: stamp) == .unchanged) }
            missing = try missingGeohashIndex(store)
            try store.finishBulkImport()
        }
        #expect(!missing)
        // A store larger than the expected import keeps its index however many rows go in.
        try await store.transaction {
            try store.beginBulkImport(expectedRows: Self.existing - 1, deferIndexAfterInserts: 1)
            defer { store.abandonBulkImport() }
            for l in Self.locations.dropFirst(Self.existing).prefix(100) { _ = try store.bulkUpsert(l, timestamp: stamp) }
            missing = try missingGeohashIndex(store)
            try store.finishBulkImport()
        }
        #expect(!missing)
        #expect(try store.verify().isEmpty)
    }
}
