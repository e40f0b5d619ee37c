import CPrefetch
import Geo

/// A static 3-D k-d tree over unit vectors, with small leaves stored contiguously.
///
/// Built once per index snapshot over a subset of its locations (all of them, or one network's).
/// Searches are driven by a `KDTreeVisitor` that sees every point within its current bound,
/// nearest subtrees first, and may tighten the bound as it goes.
struct KDTree: Sendable {
    /// The points in leaf order, each with everything a search reads about it in one record, so a leaf
    /// is a few consecutive cache lines rather than a line in each of seven arrays.
    let points: [TreePoint]
    let nodes: [Node]
    /// The largest region radius (metres) among the members: the slack in boundary-distance bounds.
    let maxRadius: Double

    /// Points per leaf. A search is bound by memory misses on the way down; 16-point leaves mean two levels
    /// fewer than 8-point ones and a sequential scan the hardware prefetches: +8 % selections/s at 1M, a faster build.
    static let leafSize = 16

    struct Node: Sendable {
        var minX, minY, minZ, maxX, maxY, maxZ: Double
        var start: Int32
        var end: Int32
        /// -1 for a leaf; children are `left` and `left + 1`.
        var left: Int32
        /// The largest region radius (metres) in the subtree: a search ranking by boundary distance (d − r)
        /// skips a subtree whose box is farther than its reach plus this. (The node is exactly 64 bytes.)
        var maxRadius: Float
    }

    var isEmpty: Bool { points.isEmpty }

    init(members input: [UInt32], x: [Double], y: [Double], z: [Double], radius: [Float], network: [UInt32], rule: [RadiusPolicy.Rule]) {
        var order = input
        var nodes: [Node] = []
        nodes.reserveCapacity(max(1, 2 * input.count / Self.leafSize + 2))
        var maxRadius = 0.0
        for m in input { maxRadius = max(maxRadius, Double(radius[Int(m)])) }
        if !order.isEmpty {
            order.withUnsafeMutableBufferPointer { buffer in
                // Top-down: split on the widest side of a node's (loose) box at the median. Boxes are tightened after.
                var lo = (Double.infinity, Double.infinity, Double.infinity)
                var hi = (-Double.infinity, -Double.infinity, -Double.infinity)
                for m in buffer {
                    let i = Int(m)
                    lo = (min(lo.0, x[i]), min(lo.1, y[i]), min(lo.2, z[i]))
                    hi = (max(hi.0, x[i]), max(hi.1, y[i]), max(hi.2, z[i]))
                }
                nodes.append(Node(minX: lo.0, minY: lo.1, minZ: lo.2, maxX: hi.0, maxY: hi.1, maxZ: hi.2, start: 0, end: Int32(buffer.count), left: -1,
                                  maxRadius: 0))
                var pending = [0]
                while let index = pending.popLast() {
                    let node = nodes[index]
                    let start = Int(node.start), end = Int(node.end)
                    guard end - start > Self.leafSize else { continue }
                    let spans = (node.maxX - node.minX, node.maxY - node.minY, node.maxZ - node.minZ)
                    let axis = spans.0 >= spans.1 && spans.0 >= spans.2 ? 0 : (spans.1 >= spans.2 ? 1 : 2)
                    let coordinate = axis == 0 ? x : (axis == 1 ? y : z)
                    let mid = (start + end) / 2
                    Self.select(buffer, start, end, mid, coordinate)
                    let split = coordinate[Int(buffer[mid])]
                    var left = node, right = node
                    left.end = Int32(mid)
                    right.start = Int32(mid)
                    left.left = -1
                    right.left = -1
                    switch axis {
                    case 0: left.maxX = split; right.minX = split
                    case 1: left.maxY = split; right.minY = split
                    default: left.maxZ = split; right.minZ = split
                    }
                    let l = nodes.count
                    nodes.append(left)
                    nodes.append(right)
                    nodes[index].left = Int32(l)
                    pending.append(l)
                    pending.append(l + 1)
                }
                // Bottom-up: exact boxes for leaves, unions for inner nodes (children come after their parent).
                for index in stride(from: nodes.count - 1, through: 0, by: -1) {
                    var n = nodes[index]
                    if n.left < 0 {
                        n.minX = .infinity; n.minY = .infinity; n.minZ = .infinity
                        n.maxX = -.infinity; n.maxY = -.infinity; n.maxZ = -.infinity
                        n.maxRadius = 0
                        for k in Int(n.start)..<Int(n.end) {
                            let i = Int(buffer[k])
                            n.maxRadius = max(n.maxRadius, radius[i])
                            n.minX = min(n.minX, x[i]); n.minY = min(n.minY, y[i]); n.minZ = min(n.minZ, z[i])
                            n.maxX = max(n.maxX, x[i]); n.maxY = max(n.maxY, y[i]); n.maxZ = max(n.maxZ, z[i])
                        }
                    } else {
                        let a = nodes[Int(n.left)], b = nodes[Int(n.left) + 1]
                        n.minX = min(a.minX, b.minX); n.minY = min(a.minY, b.minY); n.minZ = min(a.minZ, b.minZ)
                        n.maxX = max(a.maxX, b.maxX); n.maxY = max(a.maxY, b.maxY); n.maxZ = max(a.maxZ, b.maxZ)
                        n.maxRadius = max(a.maxRadius, b.maxRadius)
                    }
                    nodes[index] = n
                }
            }
        }
        self.points = order.map { m in
            let i = Int(m)
            return TreePoint(x: x[i], y: y[i], z: z[i], member: m, network: network[i], radius: radius[i], rule: rule[i])
        }
        self.nodes = nodes
        self.maxRadius = maxRadius
    }

    /// Quickselect: afterwards buffer[k] holds the element of rank k (by `key`) within [start, end),
    /// smaller ones before it and larger ones after.
    private static func select(_ a: UnsafeMutableBufferPointer<UInt32>, _ start: Int, _ end: Int, _ k: Int, _ key: [Double]) {
        var lo = start, hi = end - 1
        while hi > lo {
            // Median of three as pivot guards against sorted input.
            let m = lo + (hi - lo) / 2
            let a0 = key[Int(a[lo])], a1 = key[Int(a[m])], a2 = key[Int(a[hi])]
            let pivot = max(min(a0, a1), min(max(a0, a1), a2))
            var i = lo, j = hi
            while i <= j {
                while key[Int(a[i])] < pivot { i += 1 }
                while key[Int(a[j])] > pivot { j -= 1 }
                if i <= j {
                    a.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { return }
        }
    }

    @inline(__always)
    static func boxDistanceSquared(_ n: Node, _ qx: Double, _ qy: Double, _ qz: Double) -> Double {
        let dx = qx < n.minX ? n.minX - qx : (qx > n.maxX ? qx - n.maxX : 0)
        let dy = qy < n.minY ? n.minY - qy : (qy > n.maxY ? qy - n.maxY : 0)
        let dz = qz < n.minZ ? n.minZ - qz : (qz > n.maxZ ? qz - n.maxZ : 0)
        return dx * dx + dy * dy + dz * dz
    }

    /// How many points lie within a squared chord of q, counting whole subtrees whose box is inside the
    /// bound without looking at their points, and stopping at `cap`.
    func count(within bound: Double, of qx: Double, _ qy: Double, _ qz: Double, cap: Int) -> Int {
        guard !nodes.isEmpty else { return 0 }
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 128) { stack in
            var found = 0
            var top = 1
            stack[0] = 0
            while top > 0 && found < cap {
                top -= 1
                let n = nodes[Int(stack[top])]
                if Self.boxDistanceSquared(n, qx, qy, qz) > bound { continue }
                let fx = max(abs(qx - n.minX), abs(qx - n.maxX)), fy = max(abs(qy - n.minY), abs(qy - n.maxY))
                let fz = max(abs(qz - n.minZ), abs(qz - n.maxZ))
                if fx * fx + fy * fy + fz * fz <= bound {
                    found += Int(n.end - n.start)
                } else if n.left < 0 {
                    for i in Int(n.start)..<Int(n.end) {
                        let p = points[i]
                        let dx = p.x - qx, dy = p.y - qy, dz = p.z - qz
                        if dx * dx + dy * dy + dz * dz <= bound { found += 1 }
                    }
                } else {
                    stack[top] = n.left
                    stack[top + 1] = n.left + 1
                    top += 2
                }
            }
            return found
        }
    }

    /// Whether a subtree whose box lies `boxChordSquared` from the query can hold a point the visitor takes:
    /// within its chord bound, and with a boundary distance d − r within its reach. A chord never exceeds its
    /// arc (c ≤ d / R), so R·c > reach + r proves d − r > reach without trigonometry.
    /// (Takes the visitor's two bounds rather than the visitor: passing a visitor that holds references by value
    /// cost a retain and a release of each at every node.)
    @inline(__always)
    static func mayHold(_ boxChordSquared: Double, maxRadius: Float, bound: Double, reach: Double) -> Bool {
        if boxChordSquared > bound { return false }
        let limit = reach + Double(maxRadius)
        if limit < 0 { return false }
        return boxChordSquared * earthRadiusSquared <= limit * limit
    }

    static let earthRadiusSquared = Sphere.earthRadiusMeters * Sphere.earthRadiusMeters

    /// Starts loading what searching `node` will read first: its children, or its leaf's points. The search
    /// works on the other pushed subtree meanwhile, so a miss overlaps work instead of stalling it.
    @inline(__always)
    static func prefetchBelow(_ node: Node, _ nodes: UnsafeBufferPointer<Node>, _ points: UnsafeBufferPointer<TreePoint>) {
        let first: UnsafeRawPointer, bytes: Int
        if node.left >= 0 {
            first = UnsafeRawPointer(nodes.baseAddress! + Int(node.left))
            bytes = 2 * MemoryLayout<Node>.stride
        } else {
            first = UnsafeRawPointer(points.baseAddress! + Int(node.start))
            bytes = Int(node.end - node.start) * MemoryLayout<TreePoint>.stride
        }
        // The first two lines: the hardware prefetcher follows a leaf's sequential reads on its own.
        oncue_prefetch(first)
        oncue_prefetch(first + min(64, bytes - 1))
    }

    /// Visits every point whose squared chord to q is within the visitor's bound, nearer subtrees first.
    @inline(__always)
    func search<V: KDTreeVisitor>(_ qx: Double, _ qy: Double, _ qz: Double, _ visitor: inout V) {
        guard !nodes.isEmpty else { return }
        withUnsafeTemporaryAllocation(of: (Int32, Double).self, capacity: 128) { stack in
            var top = 0
            stack[0] = (0, Self.boxDistanceSquared(nodes[0], qx, qy, qz))
            top = 1
            nodes.withUnsafeBufferPointer { nodes in
                points.withUnsafeBufferPointer { points in
                    while top > 0 {
                        top -= 1
                        let (index, bound) = stack[top]
                        let node = nodes[Int(index)]
                        // The visitor's bounds may have shrunk since the node was pushed.
                        if !Self.mayHold(bound, maxRadius: node.maxRadius, bound: visitor.boundSquared, reach: visitor.reachMeters) { continue }
                        if node.left < 0 {
                            for i in Int(node.start)..<Int(node.end) {
                                let p = points[i]
                                let dx = p.x - qx, dy = p.y - qy, dz = p.z - qz
                                let d2 = dx * dx + dy * dy + dz * dz
                                if d2 <= visitor.boundSquared { visitor.visit(p, chordSquared: d2) }
                            }
                            continue
                        }
                        let l = Int(node.left)
                        let a = nodes[l], b = nodes[l + 1]
                        let dl = Self.boxDistanceSquared(a, qx, qy, qz)
                        let dr = Self.boxDistanceSquared(b, qx, qy, qz)
                        let boundSquared = visitor.boundSquared, reach = visitor.reachMeters
                        let takeL = Self.mayHold(dl, maxRadius: a.maxRadius, bound: boundSquared, reach: reach)
                        let takeR = Self.mayHold(dr, maxRadius: b.maxRadius, bound: boundSquared, reach: reach)
                        if takeL { Self.prefetchBelow(a, nodes, points) }
                        if takeR { Self.prefetchBelow(b, nodes, points) }
                        // Push the farther child first so the nearer one is searched first.
                        if dl <= dr {
                            if takeR { stack[top] = (Int32(l + 1), dr); top += 1 }
                            if takeL { stack[top] = (Int32(l), dl); top += 1 }
                        } else {
                            if takeL { stack[top] = (Int32(l), dl); top += 1 }
                            if takeR { stack[top] = (Int32(l + 1), dr); top += 1 }
                        }
                    }
                }
            }
        }
    }
}

/// Receives the points a `KDTree.search` finds; `boundSquared` may shrink between calls.
protocol KDTreeVisitor {
    /// Squared chord beyond which no point is wanted.
    var boundSquared: Double { get }
    /// Boundary distance (d − r, metres) beyond which no point is wanted; +∞ when any will do.
    var reachMeters: Double { get }
    mutating func visit(_ point: TreePoint, chordSquared: Double)
}

/// What a search knows about a point it found (40 bytes: the unit vector, then the location's facts).
struct TreePoint {
    var x: Double
    var y: Double
    var z: Double
    /// Location number (position in the index's arrays).
    var member: UInt32
    var network: UInt32
    var radius: Float
    var rule: RadiusPolicy.Rule
}
