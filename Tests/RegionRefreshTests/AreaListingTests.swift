import Foundation
import Geo
import LocationStore
import SyntheticData
import TestSupport
import Testing

@testable import RegionRefresh

/// `LocationIndex.locations(in:limit:)` against a brute-force scan of every location.
@Suite("Locations inside a box", .cpuHeavy)
struct AreaListingTests {
    static func bruteForce(_ locations: [Location], _ box: GeoBox, limit: Int) -> (ids: [String], truncated: Bool) {
        let crosses = box.minLongitude > box.maxLongitude
        let width = crosses ? box.maxLongitude + 360 - box.minLongitude : box.maxLongitude - box.minLongitude
        var midLon = box.minLongitude + width / 2
        if midLon > 180 { midLon -= 360 }
        let center = Coordinate(uncheckedLatitude: (box.minLatitude + box.maxLatitude) / 2, longitude: midLon)
        let inside = locations.filter { l in
            let c = l.coordinate
            guard c.latitude >= box.minLatitude, c.latitude <= box.maxLatitude else { return false }
            return crosses
                ? (c.longitude >= box.minLongitude || c.longitude <= box.maxLongitude)
                : (c.longitude >= box.minLongitude && c.longitude <= box.maxLongitude)
        }
        let sorted = inside.map { ($0.id, Sphere.distance(center, $0.coordinate)) }.sorted { $0.1 < $1.1 }
        return (sorted.prefix(limit).map(\.0), inside.count > limit)
    }

    @Test("equal to a brute-force scan: small and large boxes, limits, the antimeridian")
    func matchesBruteForce() throws {
        var locations = Array(SyntheticLocations(count: 20_000, seed: 22, networkCount: 4, clusterCount: 6))
        // A few on both sides of the antimeridian.
        for (i, lon) in [179.95, 179.99, -179.99, -179.9, 179.5].enumerated() {
            locations.append(
                Location(networkId: "fiji", externalId: "\(i)", name: "F\(i)", coordinate: Coordinate(uncheckedLatitude: -16.8, longitude: lon)))
        }
        let networks = SyntheticLocations(count: 0, seed: 22, networkCount: 4, clusterCount: 6).networks + [Network(id: "fiji", name: "Fiji")]
        let index = LocationIndex.build(locations: locations, networks: networks)
        var boxes: [GeoBox] = [
            GeoBox(minLatitude: -17, maxLatitude: -16.5, minLongitude: 179.9, maxLongitude: -179.95),
            GeoBox(minLatitude: -90, maxLatitude: 90, minLongitude: -180, maxLongitude: 180),
        ]
        var rng = SeededRandom(seed: 7)
        for _ in 0..<40 {
            let l = locations[Int.random(in: 0..<locations.count, using: &rng)].coordinate
            let h = Double.random(in: 0.001...0.5, using: &rng)
            let w = Double.random(in: 0.001...0.8, using: &rng)
            boxes.append(
                GeoBox(
                    minLatitude: max(-90, l.latitude - h), maxLatitude: min(90, l.latitude + h),
                    minLongitude: max(-180, l.longitude - w), maxLongitude: min(180, l.longitude + w)))
        }
        // Wide boxes, whose farthest points lie on their east and west edges near the equator, not at their corners.
        boxes += [
            GeoBox(minLatitude: -60, maxLatitude: 60, minLongitude: -170, maxLongitude: 170),
            GeoBox(minLatitude: 0, maxLatitude: 10, minLongitude: -179, maxLongitude: 179),
            GeoBox(minLatitude: -89, maxLatitude: 89, minLongitude: 100, maxLongitude: 90),
        ]
        for _ in 0..<20 {
            let south = Double.random(in: -90...80, using: &rng)
            let west = Double.random(in: -180...180, using: &rng)
            let east = west + Double.random(in: 30...359, using: &rng)
            boxes.append(
                GeoBox(
                    minLatitude: south, maxLatitude: min(90, south + Double.random(in: 1...170, using: &rng)),
                    minLongitude: west, maxLongitude: east > 180 ? east - 360 : east))
        }
        for box in boxes {
            for limit in [1, 25, 2_000] {
                let got = index.locations(in: box, limit: limit)
                let want = Self.bruteForce(locations, box, limit: limit)
                #expect(got.truncated == want.truncated, "\(box) limit \(limit)")
                #expect(Set(got.locations.map(\.id)) == Set(want.ids), "\(box) limit \(limit)")
            }
        }
        let fiji = index.locations(in: boxes[0], limit: 10).locations.map(\.id)
        #expect(Set(fiji) == ["loc_fiji_0", "loc_fiji_1", "loc_fiji_2"])
    }
}
