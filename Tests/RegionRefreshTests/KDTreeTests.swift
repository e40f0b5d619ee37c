import Foundation
import Geo
import TestSupport
import Testing

@testable import RegionRefresh

/// The k-d tree against brute force: a search must see every point within its bound (however the bound shrinks), and
/// a count must equal the number of points within its bound, on random and degenerate inputs.
@Suite("KDTree against brute force", .cpuHeavy)
struct KDTreeTests {
    /// Points as the index builds them: unit vectors, radii and rules per location number.
    struct Points {
        var vectors: [UnitVector] = []
        var radius: [Float] = []

        mutating func add(latitude: Double, longitude: Double, radius r: Float = 100) {
            vectors.append(UnitVector(latitude: latitude, longitude: longitude))
            radius.append(r)
        }

        func tree() -> KDTree {
            KDTree(
                members: (0..<vectors.count).map(UInt32.init), x: vectors.map(\.x), y: vectors.map(\.y), z: vectors.map(\.z),
                radius: radius, network: [UInt32](repeating: 0, count: vectors.count))
        }

        /// Location numbers whose squared chord to q is within `bound`, by the tree's own arithmetic.
        func within(_ bound: Double, of q: UnitVector) -> Set<UInt32> {
            Set(vectors.indices.filter { Self.chord(vectors[$0], q) <= bound }.map(UInt32.init))
        }

        static func chord(_ p: UnitVector, _ q: UnitVector) -> Double {
            let dx = p.x - q.x
            let dy = p.y - q.y
            let dz = p.z - q.z
            return dx * dx + dy * dy + dz * dz
        }
    }

    /// Takes every point within a fixed bound.
    struct Everything: KDTreeVisitor {
        var boundSquared: Double
        var reachMeters: Double { .infinity }
        var seen: [UInt32] = []

        mutating func visit(_ record: UnsafePointer<TreePoint>, network: UInt32, chordSquared: Double) { seen.append(record.pointee.member) }
    }

    /// Keeps the k nearest, tightening its bound to the k-th as it goes (how the selection's collectors search).
    struct Nearest: KDTreeVisitor {
        let k: Int
        var boundSquared = Double.infinity
        var reachMeters: Double { .infinity }
        var best: [(d2: Double, member: UInt32)] = []

        mutating func visit(_ record: UnsafePointer<TreePoint>, network: UInt32, chordSquared: Double) {
            best.append((chordSquared, record.pointee.member))
            best.sort { ($0.d2, $0.member) < ($1.d2, $1.member) }
            if best.count > k { best.removeLast() }
            if best.count == k { boundSquared = best[k - 1].d2 }
        }
    }

    static func randomPoints(_ n: Int, seed: UInt64, cluster: Bool) -> Points {
        var rng = SeededRandom(seed: seed)
        var points = Points()
        for _ in 0..<n {
            if cluster {
                // A city block: every point within about 2 km of one spot.
                points.add(
                    latitude: 40.75 + Double.random(in: -0.01...0.01, using: &rng),
                    longitude: -73.98 + Double.random(in: -0.01...0.01, using: &rng),
                    radius: Float.random(in: 0...500, using: &rng))
            } else {
                // Uniform on the sphere.
                let z = Double.random(in: -1...1, using: &rng)
                points.add(
                    latitude: asin(z) * 180 / .pi, longitude: Double.random(in: -180..<180, using: &rng),
                    radius: Float.random(in: 0...3_000, using: &rng))
            }
        }
        return points
    }

    static func check(_ points: Points, queries: [UnitVector], meters: [Double]) {
        let tree = points.tree()
        for q in queries {
            for m in meters {
                let bound = UnitVector.chordSquared(meters: m)
                var visitor = Everything(boundSquared: bound)
                tree.search(q.x, q.y, q.z, &visitor)
                let expected = points.within(bound, of: q)
                #expect(Set(visitor.seen) == expected, "search within \(m) m")
                #expect(visitor.seen.count == Set(visitor.seen).count, "a point visited twice")
                #expect(tree.count(within: bound, of: q.x, q.y, q.z, cap: .max) == expected.count, "count within \(m) m")
                let cap = max(1, expected.count / 2)
                #expect(tree.count(within: bound, of: q.x, q.y, q.z, cap: cap) >= min(cap, expected.count), "capped count")
            }
            for k in [1, 5, 20] where k <= points.vectors.count {
                var nearest = Nearest(k: k)
                tree.search(q.x, q.y, q.z, &nearest)
                let brute = points.vectors.indices.map { (Points.chord(points.vectors[$0], q), UInt32($0)) }
                    .sorted { ($0.0, $0.1) < ($1.0, $1.1) }.prefix(k).map(\.1)
                #expect(nearest.best.map(\.member) == Array(brute), "\(k) nearest")
            }
        }
    }

    static let distances: [Double] = [0, 1, 50, 500, 5_000, 50_000, 1_000_000, 10_000_000, 20_037_509, 30_000_000]

    @Test("random points on the whole sphere, every size around a leaf's and a level's capacity", arguments: [0, 1, 2, 15, 16, 17, 255, 257, 3_000])
    func randomSphere(n: Int) {
        let points = Self.randomPoints(n, seed: UInt64(n) &+ 7, cluster: false)
        let queries = Self.randomPoints(25, seed: 99, cluster: false).vectors
        Self.check(points, queries: queries + Array(points.vectors.prefix(5)), meters: Self.distances)
    }

    @Test("a dense city block: thousands of points within a few kilometres", arguments: [1_000, 5_000])
    func denseCluster(n: Int) {
        let points = Self.randomPoints(n, seed: 3, cluster: true)
        let queries = Self.randomPoints(10, seed: 4, cluster: true).vectors
        Self.check(points, queries: queries, meters: [0, 1, 10, 100, 300, 1_000, 3_000])
    }

    @Test("duplicates: many points at one coordinate, and every query distance from them")
    func duplicates() {
        var points = Points()
        for _ in 0..<200 { points.add(latitude: 48.8566, longitude: 2.3522) }
        for i in 0..<50 { points.add(latitude: 48.8566 + Double(i) * 1e-7, longitude: 2.3522) }
        Self.check(
            points, queries: [points.vectors[0], UnitVector(latitude: 48.86, longitude: 2.35), UnitVector(latitude: -48.8566, longitude: -177.6478)],
            meters: Self.distances)
    }

    @Test("one point, found from anywhere at any distance")
    func onePoint() {
        var points = Points()
        points.add(latitude: 10, longitude: 20)
        Self.check(
            points, queries: [points.vectors[0], UnitVector(latitude: -10, longitude: -160), UnitVector(latitude: 90, longitude: 0)],
            meters: Self.distances)
    }

    @Test("antipodes and the antimeridian: points on opposite sides of the Earth")
    func antipodes() {
        var points = Points()
        points.add(latitude: 0, longitude: 0)
        points.add(latitude: 0, longitude: 180)
        points.add(latitude: 0, longitude: -180)
        points.add(latitude: 0, longitude: 179.9999)
        points.add(latitude: 0, longitude: -179.9999)
        points.add(latitude: 35, longitude: 139)
        points.add(latitude: -35, longitude: -41)
        let queries = points.vectors + [UnitVector(latitude: 0, longitude: 90)]
        Self.check(points, queries: queries, meters: Self.distances)
    }

    @Test("the poles: every longitude at ±90° is one place")
    func poles() {
        var points = Points()
        for lon in stride(from: -180.0, to: 180, by: 10) {
            points.add(latitude: 90, longitude: lon)
            points.add(latitude: -90, longitude: lon)
            points.add(latitude: 89.999, longitude: lon)
        }
        let queries = [
            UnitVector(latitude: 90, longitude: 0), UnitVector(latitude: -90, longitude: 123), UnitVector(latitude: 89.9995, longitude: 45),
            UnitVector(latitude: 0, longitude: 0),
        ]
        Self.check(points, queries: queries, meters: Self.distances)
    }

    @Test("the largest radius and the byte count describe the tree")
    func facts() {
        let points = Self.randomPoints(1_000, seed: 11, cluster: false)
        let tree = points.tree()
        #expect(tree.maxRadius == Double(points.radius.max()!))
        #expect(tree.points.count == 1_000)
        #expect(tree.byteCount >= 1_000 * MemoryLayout<TreePoint>.stride)
        #expect(Points().tree().isEmpty)
    }

    /// Records each point's network as the search hands it over.
    struct Networks: KDTreeVisitor {
        var boundSquared = Double.infinity
        var reachMeters: Double { .infinity }
        var seen: [UInt32: UInt32] = [:]

        mutating func visit(_ record: UnsafePointer<TreePoint>, network: UInt32, chordSquared: Double) {
            seen[record.pointee.member] = network
        }
    }

    @Test("a search hands every point its own network: several networks, one, and a tree over arrays in its leaf order")
    func networksOfPoints() {
        let points = Self.randomPoints(3_000, seed: 21, cluster: false)
        let n = points.vectors.count
        var rng = SeededRandom(seed: 5)
        let network = (0..<n).map { _ in UInt32.random(in: 0..<7, using: &rng) }
        let (x, y, z) = (points.vectors.map(\.x), points.vectors.map(\.y), points.vectors.map(\.z))
        let q = UnitVector(latitude: 12, longitude: 34)

        let mixed = KDTree(members: (0..<UInt32(n)).map { $0 }, x: x, y: y, z: z, radius: points.radius, network: network)
        var all = Networks()
        mixed.search(q.x, q.y, q.z, &all)
        #expect(all.seen.count == n)
        #expect(all.seen.allSatisfy { network[Int($0.key)] == $0.value })

        // One network's tree holds its network once, and hands it to every point.
        let threes = (0..<UInt32(n)).filter { network[Int($0)] == 3 }
        let one = KDTree(members: threes, x: x, y: y, z: z, radius: points.radius, network: network)
        var three = Networks()
        one.search(q.x, q.y, q.z, &three)
        #expect(Set(three.seen.keys) == Set(threes))
        #expect(three.seen.values.allSatisfy { $0 == 3 })
        #expect(one.pointNetworks == nil && one.soleNetwork == 3)

        // Arrays put in the tree's leaf order: member i is position i, and the networks array is the tree's own.
        let order = KDTree.leafOrder(x: x, y: y, z: z)
        #expect(Set(order).count == n)
        let ordered = KDTree(
            inLeafOrder: order.map { x[Int($0)] }, y: order.map { y[Int($0)] }, z: order.map { z[Int($0)] },
            radius: order.map { points.radius[Int($0)] }, network: HugePageArray(count: n) { network[Int(order[$0])] })
        for i in 0..<n { #expect(ordered.points[i].member == UInt32(i)) }
        var inOrder = Networks()
        ordered.search(q.x, q.y, q.z, &inOrder)
        #expect(inOrder.seen.count == n)
        #expect(inOrder.seen.allSatisfy { network[Int(order[Int($0.key)])] == $0.value })
        // The same leaves as a tree that orders the points itself.
        for i in 0..<n { #expect(mixed.points[i].member == order[i]) }
    }
}
