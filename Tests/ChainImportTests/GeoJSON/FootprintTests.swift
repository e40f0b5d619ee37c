import Foundation
import Geo
import Testing

@testable import ChainImport

/// Footprints against independent answers: the geometry of simple shapes, and a brute-force search for the inside
/// point farthest from the edges.
@Suite("Footprints")
struct FootprintTests {
    static let origin = (lat: 60.17, lon: 24.94)
    static let metresPerDegree = Sphere.earthRadiusMeters * .pi / 180

    /// A ring from points in metres east and north of `origin`, closed.
    static func ring(_ points: [(Double, Double)], lat: Double = origin.lat, lon: Double = origin.lon) -> [(lon: Double, lat: Double)] {
        let ring = points.map { (x, y) in
            (lon: lon + x / (metresPerDegree * cos(lat * .pi / 180)), lat: lat + y / metresPerDegree)
        }
        return ring + [ring[0]]
    }

    static func square(_ side: Double, at x: Double = 0, _ y: Double = 0) -> [(Double, Double)] {
        [(x, y), (x + side, y), (x + side, y + side), (x, y + side)]
    }

    /// The best inside point on a 1 m grid, by distance to the edges.
    static func bruteForcePole(_ polygon: [[Footprint.Point]]) -> Double {
        let xs = polygon[0].map(\.x)
        let ys = polygon[0].map(\.y)
        var best = -Double.infinity
        var y = ys.min()!
        while y <= ys.max()! {
            var x = xs.min()!
            while x <= xs.max()! {
                best = max(best, Footprint.signedDistance(polygon, (x, y)))
                x += 1
            }
            y += 1
        }
        return best
    }

    @Test("a square: centred, with half its diagonal as radius")
    func square() throws {
        let f = try #require(Footprint(parts: [[Self.ring(Self.square(100))]]))
        let centre = try Coordinate(
            latitude: Self.origin.lat + 50 / Self.metresPerDegree,
            longitude: Self.origin.lon + 50 / (Self.metresPerDegree * cos(Self.origin.lat * .pi / 180)))
        #expect(Sphere.distance(f.center, centre) < 0.5)
        #expect(abs(f.radiusMeters - 50 * 2.0.squareRoot()) < 0.5)
    }

    @Test("a courtyard building and a U: the centroid is outside, the point found is as far from the edges as a grid search's")
    func concave() throws {
        let courtyard = [Self.ring(Self.square(200)), Self.ring(Self.square(120, at: 40, 40))]
        let u = [Self.ring([(0, 0), (150, 0), (150, 150), (110, 150), (110, 40), (40, 40), (40, 150), (0, 150)])]
        for shape in [courtyard, u] {
            let f = try #require(Footprint(parts: [shape]))
            let projection = LocalProjection(parts: [shape])
            let projected = shape.map { $0.map { projection.project($0) } }
            let centroid = try #require(Footprint.centroid(projected))
            #expect(!Footprint.contains(projected, centroid))
            let found = projection.project((f.center.longitude, f.center.latitude))
            #expect(Footprint.contains(projected, found))
            #expect(Footprint.signedDistance(projected, found) >= Self.bruteForcePole(projected) - 1)
        }
    }

    @Test("a multipolygon is centred in its largest part and reaches the farthest vertex of every part")
    func multipolygon() throws {
        let big = [Self.ring(Self.square(100))]
        let far = [Self.ring(Self.square(10, at: 400, 0))]
        let f = try #require(Footprint(parts: [far, big]))
        let projection = LocalProjection(parts: [big])
        let bigProjected = big.map { $0.map { projection.project($0) } }
        #expect(Footprint.contains(bigProjected, projection.project((f.center.longitude, f.center.latitude))))
        let farthest = try (far + big).flatMap { $0 }.map {
            Sphere.distance(f.center, try Coordinate(latitude: $0.lat, longitude: $0.lon))
        }.max()!
        #expect(f.radiusMeters == farthest)
        #expect(f.radiusMeters > 350)
    }

    @Test("a building across the antimeridian stays whole")
    func antimeridian() throws {
        let ring = Self.ring(Self.square(100, at: -50, -50), lat: -16.8, lon: 179.9999)
        #expect(ring.contains { $0.lon > 180 })
        let wrapped = ring.map { (lon: $0.lon > 180 ? $0.lon - 360 : $0.lon, lat: $0.lat) }
        let f = try #require(Footprint(parts: [[wrapped]]))
        #expect(abs(f.radiusMeters - 50 * 2.0.squareRoot()) < 1)
        #expect(abs(abs(f.center.longitude) - 179.9999) < 0.0001)
    }

    @Test("a 100,000-vertex circle costs a bounded search and is centred within metres")
    func manyVertices() throws {
        let points = (0..<100_000).map { i -> (Double, Double) in
            let a = Double(i) / 100_000 * 2 * .pi
            return (1000 * cos(a), 1000 * sin(a))
        }
        let f = try #require(Footprint(parts: [[Self.ring(points)]]))
        let centre = try Coordinate(latitude: Self.origin.lat, longitude: Self.origin.lon)
        #expect(Sphere.distance(f.center, centre) < 5)
        #expect(abs(f.radiusMeters - 1000) < 5)
    }

    @Test("a sliver 5 cm wide and 20 km long costs a bounded first grid and keeps its centre on the sliver")
    func sliver() throws {
        let points: [(Double, Double)] = [(0, 0), (20_000, 0), (20_000, 0.05), (0, 0.05)]
        let f = try #require(Footprint(parts: [[Self.ring(points)]]))
        #expect(abs(f.radiusMeters - 10_000) < 10)
    }

    @Test("no area, no footprint")
    func degenerate() {
        #expect(Footprint(parts: [[Self.ring([(0, 0), (10, 0), (20, 0)])]]) == nil)
    }
}
