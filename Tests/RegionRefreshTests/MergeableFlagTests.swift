import Foundation
import Geo
import LocationStore
import TestSupport
import Testing

@testable import RegionRefresh

/// `TreePoint.mayMerge` lets a selection skip the merge test: it must be set on every location that has a location
/// of its own network within the larger of the two radii, in every tree. Checked pair by pair, per network.
@Suite(.cpuHeavy) struct MergeableFlagTests {
    /// Location number → flag, read from a tree's points; every location of the tree must appear once.
    func flags(of tree: KDTree) -> [UInt32: Bool] {
        var out: [UInt32: Bool] = [:]
        for i in 0..<tree.points.count { out[tree.points[i].member] = tree.points[i].mayMerge }
        return out
    }

    func check(_ index: LocationIndex) -> (flagged: Int, overlapping: Int) {
        let global = flags(of: index.globalTree)
        #expect(global.count == index.count)
        var byNetwork: [UInt32: [Int]] = [:]
        for i in 0..<index.count { byNetwork[index.network[i], default: []].append(i) }
        var overlapping = 0
        for (k, members) in byNetwork {
            let local = flags(of: index.networkTrees[Int(k)])
            #expect(local.count == members.count)
            for a in members where index.rule[a] != .splitVenue {
                var overlaps = false
                var nearlyOverlaps = false
                for b in members where b != a && index.rule[b] != .splitVenue {
                    let d = Sphere.distance(index.coordinate(a), index.coordinate(b))
                    let reach = Double(max(index.radius[a], index.radius[b]))
                    if d <= reach { overlaps = true }
                    if d <= reach * (1 + 1e-6) { nearlyOverlaps = true }
                }
                if overlaps { overlapping += 1 }
                let flag = local[UInt32(a)] ?? false
                // Never false where the pair overlaps; true only where it nearly does (the bound's rounding slack).
                #expect(!overlaps || flag, "location \(index.id(a)) overlaps a peer but is not flagged")
                #expect(!flag || nearlyOverlaps, "location \(index.id(a)) is flagged without a peer in reach")
                #expect(global[UInt32(a)] == flag, "global and network trees disagree on \(index.id(a))")
            }
        }
        return (global.values.filter { $0 }.count, overlapping)
    }

    @Test(.needsSharedDatasets) func realChains() throws {
        let fixture = try realFixture.get()
        let (flagged, overlapping) = check(fixture.index)
        // The real data has near-duplicates (the reason merging exists): the check must have some to look at.
        #expect(overlapping > 0 && flagged >= overlapping)
    }

    @Test func handBuiltPairs() {
        let origin = Coordinate(uncheckedLatitude: 45.0, longitude: -93.0)
        func at(_ m: Double) -> Coordinate { Sphere.destination(from: origin, meters: m, bearing: 90) }
        // a1/a2: 40 m apart, explicit radii 50 → overlap. a3 at 1 km: alone. b1 (another network) next to a1: no merge.
        // c1 (radius 300) and c2 (radius 20) 250 m apart: only the larger radius reaches, so both are flagged.
        let locations = [
            Location(networkId: "a", externalId: "1", name: "a1", coordinate: at(0), radiusMeters: 50),
            Location(networkId: "a", externalId: "2", name: "a2", coordinate: at(40), radiusMeters: 50),
            Location(networkId: "a", externalId: "3", name: "a3", coordinate: at(1_000), radiusMeters: 50),
            Location(networkId: "b", externalId: "1", name: "b1", coordinate: at(5), radiusMeters: 50),
            Location(networkId: "c", externalId: "1", name: "c1", coordinate: at(5_000), radiusMeters: 300),
            Location(networkId: "c", externalId: "2", name: "c2", coordinate: at(5_250), radiusMeters: 20),
        ]
        let index = LocationIndex.build(locations: locations, networks: ["a", "b", "c"].map { Network(id: $0, name: $0) })
        let global = flags(of: index.globalTree)
        var byId: [String: Bool] = [:]
        for i in 0..<index.count { byId[index.id(i)] = global[UInt32(i)] }
        #expect(byId == ["loc_a_1": true, "loc_a_2": true, "loc_a_3": false, "loc_b_1": false, "loc_c_1": true, "loc_c_2": true])
        _ = check(index)
    }

    /// `count` locations of one network laid out as `layout` says, around Times Square, radius 50 m.
    static func laidOut(_ layout: String, count: Int) -> LocationIndex {
        let origin = Coordinate(uncheckedLatitude: 40.758, longitude: -73.9855)
        var rng = SeededRandom(seed: 48)
        let locations = (0..<count).map { i -> Location in
            let at: Coordinate
            switch layout {
            case "point": at = origin
            case "line": at = Sphere.destination(from: origin, meters: Double(i) * 0.1, bearing: 90)
            case "cell": at = Sphere.destination(from: origin, meters: Double.random(in: 0..<1, using: &rng), bearing: Double(i % 360))
            default:
                at = Coordinate(
                    uncheckedLatitude: Double.random(in: 25..<49, using: &rng), longitude: Double.random(in: -124 ..< -67, using: &rng))
            }
            return Location(networkId: "a", externalId: "\(i)", name: "a\(i)", coordinate: at, radiusMeters: 50)
        }
        return LocationIndex.build(locations: locations, networks: [Network(id: "a", name: "a")])
    }

    /// The marking's work on a pile-up (every location on one point, on a line, in a metre's cell) is within twice
    /// its work on the same count spread over a continent: each location's search stops at its first peer. Before,
    /// it visited every pair (n² on one point). The flags are checked against brute force all the same.
    @Test(arguments: ["point", "line", "cell"])
    func pileUpsCostWhatSpreadRowsCost(layout: String) {
        let count = 2_000
        func work(_ index: LocationIndex) -> Int {
            var flags = [Bool](repeating: false, count: index.count)
            return flags.withUnsafeMutableBufferPointer { out in
                index.rule.withUnsafeBufferPointer { rule in index.networkTrees.reduce(0) { $0 + $1.markMergeable(into: out, rule: rule) } }
            }
        }
        let spread = Self.laidOut("spread", count: count)
        let piled = Self.laidOut(layout, count: count)
        let spreadWork = work(spread)
        let piledWork = work(piled)
        #expect(piledWork <= 2 * max(spreadWork, count), "\(layout): \(piledWork) points visited against \(spreadWork) spread out")
        let (flagged, overlapping) = check(piled)
        #expect(flagged == count && overlapping == count)
    }
}
