import Foundation
import Geo
import LocationStore
import SQLiteStore
import TestSupport
import Testing

/// During a bulk import, `neighbours` answers from the index, or, for a network that had no locations
/// when the import began, from the cells the import filled (`OccupiedCells`) when those rule a match out.
/// Either way the answer must be the brute-force one over everything in the store at that moment.
@Suite("Bulk import: near-duplicate neighbours against brute force", .cpuHeavy)
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
        var lines: [String: Int] = [:]
        let stamp = SQLiteLocationStore.storeTimestamp(Date())
        try await store.transaction {
            try store.beginBulkImport(expectedRows: incoming.count, deferIndexAfterInserts: 500)
            defer { store.abandonBulkImport() }
            for (line, l) in incoming.enumerated() {
                #expect(try store.markSeen(l.id, line: line) == nil)
                lines[l.id] = line
                let found = try store.neighbours(networkId: l.networkId, center: l.coordinate, withinMeters: Self.radius, excludingId: l.id)
                let expected = inStore.filter {
                    $0.networkId == l.networkId && $0.id != l.id
                        && Sphere.distance(
                            lat1: l.coordinate.latitude, lon1: l.coordinate.longitude,
                            lat2: $0.coordinate.latitude, lon2: $0.coordinate.longitude) <= Self.radius
                }
                #expect(Set(found.map(\.id)) == Set(expected.map(\.id)), "row \(l.id)")
                // The line the import listed each at; rows stored before the import were not listed.
                #expect(found.allSatisfy { $0.listedLine == lines[$0.id] }, "row \(l.id)")
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

    /// 6,000 rows in 150 × 150 m (about 40 within 10 m of each): a search for 4 neighbours reads the centre's cell
    /// first and stops at its 4th hit, so it reads a few rows, where the cells in index order cost over 50 per row.
    /// Asked for one listed neighbour, it also stops at the first listed one, however many unlisted rows lie near.
    @Test func aDenseClusterCostsAFewRowsPerSearch() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let store = try SQLiteLocationStore.create(path: dir.path("s.sqlite"))
        try store.upsertNetwork(Network(id: "dense", name: "Dense"))
        var rng = SeededRandom(seed: 28)
        let rows = (0..<6_000).map { i in
            Location(
                networkId: "dense", externalId: "\(i)", name: "",
                coordinate: Coordinate(
                    uncheckedLatitude: 40.758 + Double.random(in: 0..<0.00135, using: &rng),
                    longitude: -73.9855 + Double.random(in: 0..<0.00178, using: &rng)))
        }
        let stamp = SQLiteLocationStore.storeTimestamp(Date())
        try await store.transaction {
            try store.beginBulkImport(expectedRows: rows.count)
            defer { store.abandonBulkImport() }
            var withFour = 0
            for (line, l) in rows.enumerated() {
                _ = try store.markSeen(l.id, line: line)
                let found = try store.neighbours(
                    networkId: "dense", center: l.coordinate, withinMeters: Self.radius, excludingId: l.id, limit: 4)
                #expect(found.count <= 4 && found.allSatisfy { $0.distanceMeters <= Self.radius && $0.listedLine != nil })
                if found.count == 4 { withFour += 1 }
                _ = try store.bulkUpsert(l, timestamp: stamp)
            }
            #expect(withFour > 5_000, "\(withFour) of 6,000 rows found 4 neighbours")
            try store.finishBulkImport()
        }
        let (searches, rowsRead) = store.neighbourSearches
        #expect(searches > 5_900 && searches <= rows.count)
        #expect(Double(rowsRead) / Double(searches) < 30, "\(rowsRead) index rows read by \(searches) searches")
        // A second import lists the rows again: at first none is listed, and a search for one listed neighbour reads on
        // past the unlisted ones, up to `limit` rows within reach.
        try await store.transaction {
            try store.beginBulkImport(expectedRows: rows.count)
            defer { store.abandonBulkImport() }
            var unlistedFirst = 0
            for (line, l) in rows.prefix(3_000).enumerated() {
                _ = try store.markSeen(l.id, line: line)
                let found = try store.neighbours(
                    networkId: "dense", center: l.coordinate, withinMeters: Self.radius, excludingId: l.id, limit: 4,
                    listedLimit: 1)
                // Stopped at the first listed one (then it is the last found), or at 4, or when the cells ran out.
                #expect(found.count <= 4 && found.filter { $0.listedLine != nil }.count <= 1)
                if let listedAt = found.firstIndex(where: { $0.listedLine != nil }) { #expect(listedAt == found.count - 1) }
                if line > 100 { unlistedFirst += found.first?.listedLine == nil ? 1 : 0 }
            }
            // The fixture must hold searches that read past unlisted rows.
            #expect(unlistedFirst > 1_000, "\(unlistedFirst) searches met an unlisted row first")
            try store.finishBulkImport()
        }
    }
}
