import Foundation
import Geo
import TestSupport
import Testing

@testable import LocationStore

@Suite("Near-duplicate grid of the PostGIS import writer", .cpuHeavy)
struct NearDuplicateGridTests {
    @Test("the grid finds exactly the earlier rows within the radius, at any latitude and across the antimeridian")
    func matchesBruteForce() {
        var rng = SeededRandom(seed: 11)
        for center in [(40.7, -74.0), (0.0, 179.99995), (0.0, -179.99995), (75.0, 20.0), (89.9995, 10.0), (-89.99, -45.0)] {
            var grid = NearDuplicateGrid(radiusMeters: 10)
            var earlier: [(id: String, network: String, c: Coordinate)] = []
            for i in 0..<1_500 {
                // Clustered within ~40 m so that many pairs are near the radius.
                let c = Sphere.destination(
                    from: Coordinate(uncheckedLatitude: center.0, longitude: center.1),
                    meters: Double.random(in: 0...40, using: &rng), bearing: Double.random(in: 0..<360, using: &rng))
                let network = i % 3 == 0 ? "b" : "a"
                let id = "r\(i)"
                let want = Set(earlier.filter { $0.network == network && Sphere.distance($0.c, c) <= 10 }.map(\.id))
                let got = grid.neighbours(network: network, coordinate: c, excludingId: id)
                #expect(Set(got.map(\.id)) == want, "row \(i) near \(center)")
                grid.insert(network: network, coordinate: c, id: id, line: i + 2, file: 0)
                earlier.append((id, network, c))
            }
        }
    }
}
