import Foundation
import Geo
import LocationStore
import Testing

/// During a bulk import, `neighbours` answers from the index, or, for a network that had no locations
/// when the import began, from the cells the import filled (`OccupiedCells`) when those rule a match out.
/// Either way the answer must be the brute-force one over everything in the store at that moment.
@Suite("Bulk import: near-duplicate neighbours against brute force")
struct BulkNeighbourTests {
    static let radius = 10.0

    /// Points in tight clusters (a few metres to a few tens of metres apart) so that many rows have
    /// neighbours within the radius, across two networks: one with locations before the import, one without.
    static func clusteredLocations(count: Int, seed: UInt64) -> [Location] {
        var rng = SeededRandom(seed: seed)
        var out: [Location] = []
        var centers: [Coordinate] = []
        for i in 0..<count {
            let network = i % 3 == 0 ? "stocked" : "fresh"
            let coordinate: Coordinate
            if !centers.isEmpty, Double.random(in: 0..<1, using: &rng) < 0.7 {
                let c = centers[Int.random(in: 0..<centers.count, using: &rng)]
                // Up to ~25 m away: some within the radius, some just outside, across cell edges.
                coordinate = Coordinate(
                    uncheckedLatitude: c.latitude + Double.random(in: -0.00022...0.00022, using: &rng),
                    longitude: c.longitude + Double.random(in: -0.0003...0.0003, using: &rng))
            } else {
                coordinate = Coordinate(
                    uncheckedLatitude: Double.random(in: 40.70...40.75, using: &rng),
                    longitude: Double.random(in: -74.02 ... -73.95, using: &rng))
                centers.append(coordinate)
            }
            out.append(Location(networkId: network, externalId: "\(i)", name: "Store \(i)", coordinate: coordinate))
        }
        return out
    }

    @Test func neighboursDuringABulkImportMatchBruteForce() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let store = try SQLiteLocationStore.create(path: dir.path("s.sqlite"))
        try store.upsertNetwork(Network(id: "stocked", name: "Stocked"))
        try store.upsertNetwork(Network(id: "fresh", name: "Fresh"))
        let all = Self.clusteredLocations(count: 4_000, seed: 11)
        let before = all.prefix(600).filter { $0.networkId == "stocked" }
        _ = try store.upsert(Array(before))
        let incoming = all.prefix(600).filter { $0.networkId == "fresh" } + all.dropFirst(600)
        var inStore = before
        var matchedRows = 0
        let stamp = SQLiteLocationStore.storeTimestamp(Date())
        try await store.transaction {
            try store.beginBulkImport(expectedRows: incoming.count, deferIndexAfterInserts: 500)
            defer { store.abandonBulkImport() }
            for l in incoming {
                let found = try store.neighbours(networkId: l.networkId, center: l.coordinate, withinMeters: Self.radius, excludingId: l.id)
                let expected = inStore.filter {
                    $0.networkId == l.networkId && $0.id != l.id
                        && Sphere.distance(
                            lat1: l.coordinate.latitude, lon1: l.coordinate.longitude,
                            lat2: $0.coordinate.latitude, lon2: $0.coordinate.longitude) <= Self.radius
                }
                #expect(Set(found.map(\.id)) == Set(expected.map(\.id)), "row \(l.id)")
                if !expected.isEmpty { matchedRows += 1 }
                #expect(try store.bulkUpsert(l, timestamp: stamp) == .inserted)
                inStore.append(l)
            }
            try store.finishBulkImport()
        }
        // The fixture must exercise both answers: rows with neighbours and rows without.
        #expect(matchedRows > 300 && matchedRows < incoming.count - 300, "\(matchedRows) rows had neighbours")
        #expect(try store.verify().isEmpty)
    }
}
