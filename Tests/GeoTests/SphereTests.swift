import Testing

@testable import Geo

/// Great-circle maths against geographiclib on a sphere of radius 6,371,008.8 m (fixtures).
@Suite struct SphereTests {
    struct Inverse: Decodable { let lat1, lon1, lat2, lon2, meters, bearing: Double }
    struct Direct: Decodable { let lat1, lon1, bearing, meters, lat2, lon2: Double }

    @Test func distanceAndBearingMatchGeographiclib() throws {
        let cases = try loadFixture("sphere_inverse", as: [Inverse].self)
        #expect(cases.count > 1000)
        for c in cases {
            let a = try Coordinate(latitude: c.lat1, longitude: c.lon1)
            let b = try Coordinate(latitude: c.lat2, longitude: c.lon2)
            let d = Sphere.distance(a, b)
            #expect(abs(d - c.meters) <= max(1e-6, c.meters * 1e-9), "distance \(a) → \(b): \(d) vs \(c.meters)")
            // Bearing is undefined for coincident points and from the poles.
            if c.meters > 1, abs(c.lat1) < 89.999 {
                var diff = abs(Sphere.initialBearing(from: a, to: b) - c.bearing)
                diff = min(diff, 360 - diff)
                #expect(diff < 1e-6, "bearing \(a) → \(b)")
            }
        }
    }

    @Test func destinationMatchesGeographiclib() throws {
        let cases = try loadFixture("sphere_direct", as: [Direct].self)
        for c in cases {
            let start = try Coordinate(latitude: c.lat1, longitude: c.lon1)
            let end = Sphere.destination(from: start, meters: c.meters, bearing: c.bearing)
            let expected = try Coordinate(latitude: c.lat2, longitude: c.lon2)
            #expect(Sphere.distance(end, expected) < 1e-3, "destination from \(start) \(c.meters) m at \(c.bearing)°")
        }
    }

    @Test func boundsContainTheCircle() throws {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<3000 {
            let center = try Coordinate(
                latitude: Double.random(in: -90...90, using: &rng),
                longitude: Double.random(in: -180...180, using: &rng))
            let radius = Double.random(in: 10...2_000_000, using: &rng)
            let bounds = CircleBounds(center: center, radiusMeters: radius)
            for _ in 0..<20 {
                let p = Sphere.destination(
                    from: center, meters: radius * Double.random(in: 0...0.999999, using: &rng),
                    bearing: Double.random(in: 0..<360, using: &rng))
                #expect(bounds.contains(p), "\(p) within \(radius) m of \(center) is outside \(bounds.boxes)")
            }
        }
    }

    @Test func boundsAtTheAntimeridianAndPoles() throws {
        let east = CircleBounds(center: try Coordinate(latitude: 10, longitude: 179.99), radiusMeters: 10_000)
        #expect(east.boxes.count == 2)
        #expect(east.contains(try Coordinate(latitude: 10, longitude: -179.97)))
        let pole = CircleBounds(center: try Coordinate(latitude: 89.95, longitude: 12), radiusMeters: 10_000)
        #expect(pole.coversAllLongitudes)
        #expect(pole.contains(try Coordinate(latitude: 89.97, longitude: -168)))
        #expect(pole.boxes[0].maxLatitude == 90)
    }
}
