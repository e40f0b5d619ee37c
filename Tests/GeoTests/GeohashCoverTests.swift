import Foundation
import TestSupport
import Testing

@testable import Geo

/// The circle cover against brute force: no point inside a circle may lie in a cell outside the cover.
@Suite(.cpuHeavy) struct GeohashCoverTests {
    /// Random circles biased to the traps: poles, antimeridian, (0, 0); radii 10 m ... 100 km.
    static func randomCircle(_ rng: inout SeededGenerator) throws -> (Coordinate, Double) {
        let kind = Int.random(in: 0..<5, using: &rng)
        let lat: Double
        let lon: Double
        switch kind {
        case 0:
            lat = (Bool.random(using: &rng) ? 1 : -1) * .random(in: 85...90, using: &rng)
            lon = .random(in: -180...180, using: &rng)
        case 1:
            lat = .random(in: -80...80, using: &rng)
            lon = (Bool.random(using: &rng) ? 1 : -1) * .random(in: 179...180, using: &rng)
        case 2:
            lat = .random(in: -0.01...0.01, using: &rng)
            lon = .random(in: -0.01...0.01, using: &rng)
        default:
            lat = .random(in: -90...90, using: &rng)
            lon = .random(in: -180...180, using: &rng)
        }
        let radius = pow(10, Double.random(in: 1...5, using: &rng))
        return (try Coordinate(latitude: lat, longitude: lon), radius)
    }

    @Test func bruteForceFindsNoPointOutsideTheCover() throws {
        var rng = SeededGenerator(seed: 20_261_122)
        var checkedPoints = 0
        for _ in 0..<10_000 {
            let (center, radius) = try Self.randomCircle(&rng)
            let cover = GeohashCover(center: center, radiusMeters: radius)
            #expect(!cover.cells.isEmpty && cover.cells.count <= GeohashCover.defaultMaxCells)
            // Brute force: sample the disc densely, including its boundary, and the bounding box grid.
            for i in 0..<48 {
                let bearing = Double(i) * 7.5 + .random(in: 0..<7.5, using: &rng)
                for fraction in [1.0, 0.999999, .random(in: 0...1, using: &rng)] {
                    let p = Sphere.destination(from: center, meters: radius * fraction, bearing: bearing)
                    guard Sphere.distance(center, p) <= radius else { continue }
                    checkedPoints += 1
                    #expect(cover.contains(p), "\(p) is \(Sphere.distance(center, p)) m from \(center) (r \(radius)) but outside the cover")
                }
            }
            let bounds = CircleBounds(center: center, radiusMeters: radius)
            for box in bounds.boxes {
                for a in 0...8 {
                    for b in 0...8 {
                        let p = Coordinate(
                            uncheckedLatitude: box.minLatitude + (box.maxLatitude - box.minLatitude) * Double(a) / 8,
                            longitude: box.minLongitude + (box.maxLongitude - box.minLongitude) * Double(b) / 8)
                        guard Sphere.distance(center, p) <= radius else { continue }
                        checkedPoints += 1
                        #expect(cover.contains(p), "grid point \(p) inside r=\(radius) of \(center) is outside the cover")
                    }
                }
            }
        }
        #expect(checkedPoints > 1_000_000)
    }

    @Test func capAtAPoleTakesAllLongitudes() throws {
        let cover = GeohashCover(center: try Coordinate(latitude: 89.99, longitude: 0), radiusMeters: 5_000)
        for lon in stride(from: -180.0, through: 180, by: 15) {
            #expect(cover.contains(try Coordinate(latitude: 89.999, longitude: lon)))
        }
    }

    @Test func antimeridianCoverHasCellsOnBothSides() throws {
        let cover = GeohashCover(center: try Coordinate(latitude: 0.02, longitude: 179.999), radiusMeters: 2_000)
        #expect(cover.contains(try Coordinate(latitude: 0.02, longitude: -179.995)))
        #expect(cover.contains(try Coordinate(latitude: 0.02, longitude: 179.990)))
    }

    @Test func originCoverHasTheFourQuadrants() throws {
        let cover = GeohashCover(center: try Coordinate(latitude: 0, longitude: 0), radiusMeters: 100)
        let prefixes = Set(cover.cells.map { String($0.string.prefix(1)) })
        #expect(prefixes == ["s", "e", "k", "7"])
    }

    @Test func largeRadii() throws {
        for radius in [500_000.0, 5_000_000, 15_000_000, 21_000_000] {
            let center = try Coordinate(latitude: 40, longitude: -100)
            let cover = GeohashCover(center: center, radiusMeters: radius)
            var rng = SeededGenerator(seed: UInt64(radius))
            for _ in 0..<2000 {
                let p = Sphere.destination(from: center, meters: .random(in: 0...radius, using: &rng), bearing: .random(in: 0..<360, using: &rng))
                if Sphere.distance(center, p) <= radius { #expect(cover.contains(p)) }
            }
        }
    }

    @Test func stringRangesMatchCells() throws {
        let cover = GeohashCover(center: try Coordinate(latitude: 48.85, longitude: 2.35), radiusMeters: 3_000)
        let ranges = cover.stringRanges
        for cell in cover.cells {
            let full = cell.string + String(repeating: "0", count: 12 - cell.precision)
            #expect(ranges.contains { full >= $0.lower && full < $0.upper })
        }
        #expect(ranges.count <= cover.cells.count)
    }
}
