import Foundation
import Geo
import Testing

/// Unit vectors against the haversine distances of `Sphere` (an independent formula), at every scale from a
/// millimetre to the antipode.
@Suite("UnitVector")
struct UnitVectorTests {
    static func randomPairs(_ n: Int, seed: UInt64) -> [(Coordinate, Coordinate)] {
        var rng = SeededRandom(seed: seed)
        var pairs: [(Coordinate, Coordinate)] = []
        for i in 0..<n {
            let a = Coordinate(
                uncheckedLatitude: asin(Double.random(in: -1...1, using: &rng)) * 180 / .pi,
                longitude: Double.random(in: -180..<180, using: &rng))
            // Distances spread over every scale: 10^(-3 … 7.3) metres.
            let meters = pow(10, Double(i % 104) / 10 - 3)
            let b = Sphere.destination(from: a, meters: min(meters, 2e7), bearing: Double.random(in: 0..<360, using: &rng))
            pairs.append((a, b))
        }
        return pairs
    }

    @Test("a unit vector has length 1 and the poles have no longitude")
    func unitLength() {
        for (a, b) in Self.randomPairs(1_000, seed: 1) {
            for c in [a, b] {
                let v = UnitVector(c)
                #expect(abs(v.dot(v) - 1) < 1e-15)
            }
        }
        #expect(UnitVector(latitude: 90, longitude: 0).meters(to: UnitVector(latitude: 90, longitude: 137)) < 1e-9)
        #expect(UnitVector(latitude: -90, longitude: -180).meters(to: UnitVector(latitude: -90, longitude: 45)) < 1e-9)
    }

    @Test("great-circle metres agree with the haversine distance at every scale")
    func metersMatchHaversine() {
        for (a, b) in Self.randomPairs(5_000, seed: 2) {
            let exact = Sphere.distance(a, b)
            let viaVectors = UnitVector(a).meters(to: UnitVector(b))
            #expect(abs(viaVectors - exact) <= max(1e-6, exact * 1e-9), "\(a) → \(b): \(viaVectors) vs \(exact)")
        }
        let antipode = UnitVector(latitude: 0, longitude: 0).meters(to: UnitVector(latitude: 0, longitude: 180))
        #expect(abs(antipode - .pi * Sphere.earthRadiusMeters) < 1e-6)
    }

    @Test("chordSquared(meters:) bounds the chord of that distance from above, and meters(chordSquared:) inverts it")
    func chordBounds() {
        for (a, b) in Self.randomPairs(5_000, seed: 3) {
            let u = UnitVector(a)
            let v = UnitVector(b)
            let exact = Sphere.distance(a, b)
            // The bound of a distance never excludes a point at that distance.
            // (Up to a micrometre: the vectors of two points millimetres apart carry their rounding, about a nanometre.)
            #expect(u.chordSquared(to: v) <= UnitVector.chordSquared(meters: exact * (1 + 1e-9) + 1e-6))
            let back = UnitVector.meters(chordSquared: u.chordSquared(to: v))
            #expect(abs(back - exact) <= max(1e-3, exact * 1e-9), "\(exact) m read back as \(back) m")
        }
        #expect(UnitVector.chordSquared(meters: 0) == 0)
        #expect(UnitVector.chordSquared(meters: -5) == 0)
        // Beyond the antipode the chord is the diameter's.
        #expect(abs(UnitVector.chordSquared(meters: 1e9) - 4) < 1e-12)
    }

    @Test("cosOf(meters:) decides 'within r' as the distance does")
    func cosineThreshold() {
        for (a, b) in Self.randomPairs(3_000, seed: 4) {
            let d = Sphere.distance(a, b)
            let dot = UnitVector(a).dot(UnitVector(b))
            // A cosine near 1 resolves a distance d only to about R² · ulp(1) / d ≈ 4.5 mm / (d / 1 m): from 10 m up,
            // 2 mm (plus a millionth) separates the two sides of the threshold.
            guard d >= 10 else { continue }
            let slack = 2e-3 + d * 1e-6
            #expect(dot >= UnitVector.cosOf(meters: d + slack))
            #expect(dot < UnitVector.cosOf(meters: d - slack))
        }
        #expect(UnitVector.cosOf(meters: 0) == 1)
        #expect(UnitVector.cosOf(meters: 1e9) == -1)
    }
}
