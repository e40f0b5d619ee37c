import CPrefetch
import Geo

/// A static 3-D k-d tree over unit vectors whose nodes have sixteen children each.
///
/// The tree is built as a balanced binary k-d tree (median splits on the widest side) with 2^L leaves of 9 to 16
/// points, and stored four binary levels at a time: a stored node holds the boxes of its sixteen grandchildren four
/// levels down, side by side. A search at a million points goes through four stored nodes instead of sixteen
/// binary ones, so the chain of memory misses on the way down is a quarter as long, and the nodes of a tree take a
/// quarter of the memory (the top three levels of the global tree fit in 130 KB).
///
/// The layout is implicit: child `j` of node `i` is node `16 i + j` of the next level, leaf `k` holds the points
/// `k·n / 2^L ..< (k + 1)·n / 2^L`. Searches are driven by a `KDTreeVisitor` that sees every point within its
/// current bound, nearer subtrees first, and may tighten the bound as it goes.
final class KDTree: Sendable {
    /// The points in leaf order, each with everything a search reads about it in one record, so a leaf is a few
    /// consecutive cache lines rather than a line in each of seven arrays.
    let points: HugePageArray<TreePoint>
    /// `points`' address and count, kept in the tree itself: a card network's tree is read by the few queries that
    /// carry its card, so each line a search must fetch before its first node (the array's object is one) is a miss.
    nonisolated(unsafe) let pointBase: UnsafeMutablePointer<TreePoint>
    let pointCount: Int
    let nodes: WideNodes
    /// log2 of the number of leaves.
    let leafBits: Int
    /// Stored levels: the root is level 0, the children of level `levels - 1` are leaves.
    let levels: Int
    /// Index of the first node of each level in `nodes` (in the tree itself, for the same reason as `pointBase`).
    let levelStart: LevelStarts
    /// The largest region radius (metres) among the members: the slack in boundary-distance bounds.
    let maxRadius: Double

    /// Each point's network, in leaf order, when the tree holds several (the index's global tree shares the index's
    /// own per-location array: its location numbers are that tree's leaf order); nil when the tree holds one network,
    /// `soleNetwork`. Kept beside the points rather than in them: a point is then 32 bytes, two to a cache line, and a
    /// network's tree does not hold its one network once per point.
    let pointNetworks: HugePageArray<UInt32>?
    nonisolated(unsafe) let networkBase: UnsafePointer<UInt32>?
    let soleNetwork: UInt32

    /// Most points a leaf holds.
    static let leafSize = 16

    var isEmpty: Bool { pointCount == 0 }

    /// Bytes of the nodes and the points (the per-point networks aside: the global tree's are the index's own array).
    var byteCount: Int { nodes.byteCount + points.count * MemoryLayout<TreePoint>.stride }

    /// First point of leaf `k`.
    @inline(__always)
    func leafStart(_ k: Int) -> Int { (k &* pointCount) >> leafBits }

    /// A tree of no points (a network new since a full build has none there).
    static let empty = KDTree(members: [], x: [], y: [], z: [], radius: [], network: [])

    /// log2 of the number of leaves of a tree of `n` points: the fewest leaves of at most `leafSize` points.
    static func leafBits(count n: Int) -> Int {
        var bits = 0
        while (n + (1 << bits) - 1) >> bits > leafSize { bits += 1 }
        return bits
    }

    /// The order in which a tree over all `x.count` points (members 0, 1, …) holds them: leaf 0's points first. The
    /// index numbers its locations in this order, so that the tree built over them in it (`init(inLeafOrder:)`) needs
    /// no order of its own, and a leaf's points are consecutive in every per-location array.
    static func leafOrder(x: [Double], y: [Double], z: [Double]) -> [UInt32] {
        var order = (0..<UInt32(x.count)).map { $0 }
        if !order.isEmpty { splitAtMedians(&order, x: x, y: y, z: z, leafBits: leafBits(count: order.count)) }
        return order
    }

    /// A tree over `members` (positions in the arrays given); each point's location number is its member plus
    /// `memberOffset` (an overlay's locations are numbered after the full build's).
    convenience init(members: [UInt32], x: [Double], y: [Double], z: [Double], radius: [Float], network: [UInt32], memberOffset: UInt32 = 0) {
        var order = members
        if !order.isEmpty { Self.splitAtMedians(&order, x: x, y: y, z: z, leafBits: Self.leafBits(count: order.count)) }
        self.init(order: order, x: x, y: y, z: z, radius: radius, network: { network[$0] }, inOrder: nil, memberOffset: memberOffset)
    }

    /// A tree over every point of arrays already in `leafOrder`: point i is member i, and the tree's per-point networks
    /// are `network` itself (shared, not copied).
    convenience init(inLeafOrder x: [Double], y: [Double], z: [Double], radius: [Float], network: HugePageArray<UInt32>) {
        self.init(order: (0..<UInt32(x.count)).map { $0 }, x: x, y: y, z: z, radius: radius, network: { network[$0] }, inOrder: network)
    }

    /// `network(m)` is member m's network; `inOrder`, when given, is every point's network in the order of `order`.
    private init(
        order: [UInt32], x: [Double], y: [Double], z: [Double], radius: [Float], network: (Int) -> UInt32, inOrder: HugePageArray<UInt32>?,
        memberOffset: UInt32 = 0
    ) {
        let n = order.count
        let bits = Self.leafBits(count: n)
        leafBits = bits
        let levels = max(1, (bits + 3) / 4)
        self.levels = levels
        var maxRadius = 0.0
        for m in order { maxRadius = max(maxRadius, Double(radius[Int(m)])) }
        self.maxRadius = maxRadius
        let points = HugePageArray(count: n) { k in
            let i = Int(order[k])
            return TreePoint(x: x[i], y: y[i], z: z[i], member: order[k] + memberOffset, radius: radius[i])
        }
        self.points = points
        pointBase = points.base
        pointCount = n
        let sole = n == 0 ? 0 : network(Int(order[0]))
        soleNetwork = sole
        pointNetworks = order.allSatisfy { network(Int($0)) == sole } ? nil : inOrder ?? HugePageArray(count: n) { network(Int(order[$0])) }
        networkBase = pointNetworks.map { UnsafePointer($0.base) }
        (nodes, levelStart) = Self.wideNodes(over: points, leafBits: bits, levels: levels)
    }

    /// `tree` with each point's region radius set from `radius` (by location number): the order of its points and
    /// their boxes do not depend on radii, so only the radii in its nodes are worked out again, in one pass, rather
    /// than the tree built anew. Takes over `tree`'s points, which it changes: `tree` must not be searched afterwards
    /// (the build counts neighbours with a tree of radius 0, then turns it into the global tree).
    init(takingOver tree: KDTree, radius: [Float]) {
        leafBits = tree.leafBits
        levels = tree.levels
        levelStart = tree.levelStart
        points = tree.points
        pointBase = tree.pointBase
        pointCount = tree.pointCount
        pointNetworks = tree.pointNetworks
        networkBase = tree.networkBase
        soleNetwork = tree.soleNetwork
        var largest = 0.0
        for i in 0..<points.count {
            let m = Int(points.base[i].member)
            points.base[i].radius = radius[m]
            largest = max(largest, Double(radius[m]))
        }
        maxRadius = largest
        (nodes, _) = Self.wideNodes(over: points, leafBits: leafBits, levels: levels)
    }

    /// First point of leaf `k` of a tree of `n` points in 2^`bits` leaves, while the tree is being built.
    @inline(__always)
    private static func leafStart(_ k: Int, count n: Int, leafBits bits: Int) -> Int { (k * n) >> bits }

    /// Orders `order` so that leaf `k` holds the points of its cell: top-down median splits on the widest side. The
    /// split box of a node is its parent's cut at the median, which is enough to choose the widest side.
    private static func splitAtMedians(_ order: inout [UInt32], x: [Double], y: [Double], z: [Double], leafBits bits: Int) {
        let n = order.count
        order.withUnsafeMutableBufferPointer { buffer in
            var lo = (Double.infinity, Double.infinity, Double.infinity)
            var hi = (-Double.infinity, -Double.infinity, -Double.infinity)
            for m in buffer {
                let i = Int(m)
                lo = (min(lo.0, x[i]), min(lo.1, y[i]), min(lo.2, z[i]))
                hi = (max(hi.0, x[i]), max(hi.1, y[i]), max(hi.2, z[i]))
            }
            var pending = [(first: 0, last: 1 << bits, lo: lo, hi: hi)]
            while let part = pending.popLast() {
                guard part.last - part.first > 1 else { continue }
                let spans = (part.hi.0 - part.lo.0, part.hi.1 - part.lo.1, part.hi.2 - part.lo.2)
                let axis = spans.0 >= spans.1 && spans.0 >= spans.2 ? 0 : (spans.1 >= spans.2 ? 1 : 2)
                let coordinate = axis == 0 ? x : (axis == 1 ? y : z)
                let middle = (part.first + part.last) / 2
                let s = leafStart(part.first, count: n, leafBits: bits)
                let e = leafStart(part.last, count: n, leafBits: bits)
                let mid = leafStart(middle, count: n, leafBits: bits)
                select(buffer, s, e, mid, coordinate)
                let split = mid < e ? coordinate[Int(buffer[mid])] : (axis == 0 ? part.hi.0 : (axis == 1 ? part.hi.1 : part.hi.2))
                var left = part
                var right = part
                left.last = middle
                right.first = middle
                switch axis {
                case 0:
                    left.hi.0 = split
                    right.lo.0 = split
                case 1:
                    left.hi.1 = split
                    right.lo.1 = split
                default:
                    left.hi.2 = split
                    right.lo.2 = split
                }
                pending.append(left)
                pending.append(right)
            }
        }
    }

    /// The stored nodes and where each level starts: exact boxes bottom-up, the leaves', then each stored level's
    /// from the one below it.
    private static func wideNodes(
        over points: HugePageArray<TreePoint>, leafBits bits: Int, levels: Int
    )
        -> (nodes: WideNodes, levelStart: LevelStarts)
    {
        let n = points.count
        let leafCount = 1 << bits
        var boxes = [Box](repeating: .empty, count: n > 0 ? leafCount : 0)
        for k in boxes.indices {
            for i in leafStart(k, count: n, leafBits: bits)..<leafStart(k + 1, count: n, leafBits: bits) { boxes[k].add(points[i]) }
        }
        var levelBoxes: [[Box]] = [boxes]  // levelBoxes[0] = leaves, [1] = the last stored level, …
        var starts: [Int] = []
        var total = 0
        var count = leafCount
        for _ in 0..<levels {
            let below = levelBoxes[levelBoxes.count - 1]
            count = max(1, count / 16)
            var above = [Box](repeating: .empty, count: count)
            for (k, b) in below.enumerated() { above[k / 16].add(b) }
            levelBoxes.append(above)
        }
        // Stored level l holds the nodes whose boxes are levelBoxes[levels - l]; their children are levelBoxes[levels - l - 1].
        for l in 0..<levels {
            starts.append(total)
            total += levelBoxes[levels - l].count
        }
        var wide = WideNodes(count: n > 0 ? total : 0)
        if n > 0 {
            for l in 0..<levels {
                let children = levelBoxes[levels - l - 1]
                for (c, box) in children.enumerated() {
                    wide.set(node: starts[l] + c / 16, child: c % 16, box: box)
                }
            }
        }
        return (wide, LevelStarts(starts))
    }

    /// Quickselect: afterwards buffer[k] holds the element of rank k (by `key`) within [start, end),
    /// smaller ones before it and larger ones after.
    private static func select(_ a: UnsafeMutableBufferPointer<UInt32>, _ start: Int, _ end: Int, _ k: Int, _ key: [Double]) {
        guard k < end else { return }
        var lo = start
        var hi = end - 1
        while hi > lo {
            // Median of three as pivot guards against sorted input.
            let m = lo + (hi - lo) / 2
            let a0 = key[Int(a[lo])]
            let a1 = key[Int(a[m])]
            let a2 = key[Int(a[hi])]
            let pivot = max(min(a0, a1), min(max(a0, a1), a2))
            var i = lo
            var j = hi
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

    /// Entries a search's stack can hold at once: each node taken off it puts back at most sixteen children, so at
    /// most fifteen wait at each level above the deepest, and sixteen at the deepest. At a million points (four
    /// levels) that is 61 entries, 976 bytes: within the 1 KB that `withUnsafeTemporaryAllocation` always takes from
    /// the stack (above it, it asked malloc, twice per selection).
    var stackCapacity: Int { 15 * levels + 1 }

    /// A child met during a search: a stored node (`level < levels`) or a leaf (`level == levels`).
    struct Pending {
        var index: Int32
        var level: Int32
        /// Lower bound of the squared chord from the query to anything in the child.
        var chordSquared: Float
        var maxRadius: Float
    }

    /// How many points lie within a squared chord of q, counting whole subtrees whose box is inside the
    /// bound without looking at their points, and stopping at `cap`.
    func count(within bound: Double, of qx: Double, _ qy: Double, _ qz: Double, cap: Int) -> Int {
        guard !isEmpty else { return 0 }
        let query = WideNodes.Query(qx, qy, qz)
        let near = WideNodes.roundedUp(bound)
        let far = WideNodes.roundedDown(bound)
        return withUnsafeTemporaryAllocation(of: Pending.self, capacity: stackCapacity) { stack in
            var found = 0
            var top = 0
            // A leaf's points are scanned; a stored node's children are counted whole, scanned or descended into.
            func scan(_ k: Int) {
                for i in leafStart(k)..<leafStart(k + 1) {
                    let p = pointBase[i]
                    let dx = p.x - qx
                    let dy = p.y - qy
                    let dz = p.z - qz
                    if dx * dx + dy * dy + dz * dz <= bound { found += 1 }
                }
            }
            stack[0] = Pending(index: 0, level: 0, chordSquared: 0, maxRadius: 0)
            top = 1
            let capacity = stack.count
            while top > 0 && found < cap {
                top -= 1
                let entry = stack[top]
                let level = Int(entry.level)
                if level == levels {
                    scan(Int(entry.index))
                    continue
                }
                let node = Int(entry.index)
                let stored = levelStart[level] + node
                let within = nodes.nearest(node: stored, query) .<= WideNodes.Lanes(repeating: near)
                let whole = nodes.farthest(node: stored, query) .<= WideNodes.Lanes(repeating: far)
                for j in 0..<16 where within[j] {
                    let child = node * 16 + j
                    if whole[j] {
                        found += level + 1 == levels ? leafStart(child + 1) - leafStart(child) : subtreeCount(child, level: level + 1)
                    } else {
                        assert(top < capacity, "the count's stack overflowed its \(capacity) entries")
                        stack[top] = Pending(index: Int32(child), level: Int32(level + 1), chordSquared: 0, maxRadius: 0)
                        top += 1
                    }
                }
            }
            return found
        }
    }

    /// Points under node `i` of stored level `level`.
    private func subtreeCount(_ i: Int, level: Int) -> Int {
        let span = 1 << (4 * (levels - level))
        return leafStart(min(1 << leafBits, (i + 1) * span)) - leafStart(min(1 << leafBits, i * span))
    }

    /// Whether a subtree whose box lies `boxChordSquared` from the query can hold a point the visitor takes:
    /// within its chord bound, and with a boundary distance d − r within its reach. A chord never exceeds its
    /// arc (c ≤ d / R), so R·c > reach + r proves d − r > reach without trigonometry. The bounds come rounded up
    /// (`WideNodes.roundedUp`), so single precision never prunes a subtree that could hold a point.
    @inline(__always)
    static func mayHold(_ boxChordSquared: Float, maxRadius: Float, bound: Float, reach: Float) -> Bool {
        if boxChordSquared > bound { return false }
        let limit = reach + maxRadius
        if limit < 0 { return false }
        return boxChordSquared * earthRadiusSquared <= limit * limit * WideNodes.slack
    }

    static let earthRadiusSquared = Float(Sphere.earthRadiusMeters * Sphere.earthRadiusMeters)

    /// Visits every point whose squared chord to q is within the visitor's bound, nearer subtrees first, except the
    /// members whose bit is set in `hidden` (an overlay's, see `IndexOverlay`).
    @inline(__always)
    func search<V: KDTreeVisitor>(
        _ qx: Double, _ qy: Double, _ qz: Double, _ visitor: inout V, skipping hidden: UnsafePointer<UInt64>? = nil
    ) {
        guard !isEmpty else { return }
        withUnsafeTemporaryAllocation(of: Pending.self, capacity: stackCapacity) { stack in
            withUnsafeTemporaryAllocation(of: WideNodes.Lanes.self, capacity: 2) { scratch in
                descend(qx, qy, qz, &visitor, hidden: hidden, stack: stack.baseAddress!, scratch: scratch.baseAddress!)
            }
        }
    }

    /// The search proper, out of the closures that give it its stack: LLVM left the C prefetch helpers as calls
    /// inside those closures (27 calls per search), and inlines them in a function of its own.
    @inline(never)
    private func descend<V: KDTreeVisitor>(
        _ qx: Double, _ qy: Double, _ qz: Double, _ visitor: inout V, hidden: UnsafePointer<UInt64>?,
        stack: UnsafeMutablePointer<Pending>, scratch: UnsafeMutablePointer<WideNodes.Lanes>
    ) {
        let networks = networkBase
        let sole = soleNetwork
        let query = WideNodes.Query(qx, qy, qz)
        let lanes = UnsafeRawPointer(scratch).assumingMemoryBound(to: Float.self)
        let points = UnsafePointer(pointBase)
        stack[0] = Pending(index: 0, level: 0, chordSquared: 0, maxRadius: .infinity)
        var top = 1
        while top > 0 {
            top -= 1
            let entry = stack[top]
            // The visitor's bounds may have shrunk since the child was pushed.
            let bound = WideNodes.roundedUp(visitor.boundSquared)
            let reach = WideNodes.roundedUp(visitor.reachMeters)
            if !Self.mayHold(entry.chordSquared, maxRadius: entry.maxRadius, bound: bound, reach: reach) { continue }
            let level = Int(entry.level)
            // What comes next is on the stack already: start loading it while this one is worked on.
            if top > 0 { prefetch(stack[top - 1], points, networks) }
            if level == levels {
                let k = Int(entry.index)
                assert(leafStart(k + 1) <= pointCount, "a leaf beyond the points")
                for i in leafStart(k)..<leafStart(k + 1) {
                    let p = points[i]
                    let dx = p.x - qx
                    let dy = p.y - qy
                    let dz = p.z - qz
                    let d2 = dx * dx + dy * dy + dz * dz
                    guard d2 <= visitor.boundSquared else { continue }
                    if let hidden {
                        let m = Int(p.member)
                        if (hidden[m >> 6] >> UInt64(m & 63)) & 1 == 1 { continue }
                    }
                    visitor.visit(points + i, network: networks?[i] ?? sole, chordSquared: d2)
                }
                continue
            }
            let node = Int(entry.index)
            let stored = levelStart[level] + node
            let near = nodes.nearest(node: stored, query)
            let radii = nodes.radii(node: stored)
            // mayHold for the sixteen at once.
            let limit = radii + WideNodes.Lanes(repeating: reach)
            var taken = WideNodes.bits(
                (near .<= WideNodes.Lanes(repeating: bound)) .& (limit .>= WideNodes.Lanes())
                    .& (near * WideNodes.Lanes(repeating: Self.earthRadiusSquared) .<= limit * limit * WideNodes.Lanes(repeating: WideNodes.slack)))
            // Lanes are read back from memory: extracting them from the vectors spilled all of them at every lane.
            scratch[0] = near
            scratch[1] = radii
            // The children that may hold a point, nearest last, so that the nearest is searched first.
            let first = top
            while taken != 0 {
                let j = taken.trailingZeroBitCount
                taken &= taken &- 1
                let child = Pending(index: Int32(node * 16 + j), level: Int32(level + 1), chordSquared: lanes[j], maxRadius: lanes[16 + j])
                var i = top
                assert(top < stackCapacity, "the search's stack overflowed its \(stackCapacity) entries")
                while i > first && stack[i - 1].chordSquared < child.chordSquared {
                    stack[i] = stack[i - 1]
                    i -= 1
                }
                stack[i] = child
                top += 1
            }
            // Start loading the nearest two: the search works on the first while the second arrives.
            if top > first { prefetch(stack[top - 1], points, networks) }
            if top > first + 1 { prefetch(stack[top - 2], points, networks) }
        }
    }

    /// Sets `flags[m]` for every point m of this tree that has another point of the tree within the larger of the two
    /// radii (split venues, by `rule[m]`, left out: they never merge). Meant for a network's tree, where every point is
    /// of one network. Each point looks for one peer within its own radius, and failing that for one whose radius covers
    /// it (the nodes' largest radii prune that search). The bound is widened by a billionth, so `flags` is never false where
    /// the selection's overlap test (`RegionAssembler`) could say true.
    /// Returns the points its searches visited (the work, for tests that bound it).
    @discardableResult
    func markMergeable(into flags: UnsafeMutableBufferPointer<Bool>, rule: UnsafeBufferPointer<RadiusPolicy.Rule>) -> Int {
        // A point may merge when another (neither a split venue) lies within the larger of their two radii. Each
        // point's search stops at the first such peer, so a pile-up on one point costs a search per point, not a
        // visit per pair (enumerating every peer made 200,000 rows on one point a build of hours).
        struct FirstPeer: KDTreeVisitor {
            let member: UInt32
            let radius: Double
            let rule: UnsafeBufferPointer<RadiusPolicy.Rule>
            /// Within the searcher's own radius (`reachMeters` ∞), or within the peer's (`reachMeters` 0: only
            /// subtrees whose largest radius could cover the searcher are opened).
            let ownRadius: Bool
            var boundSquared: Double
            var reachMeters: Double { ownRadius ? .infinity : 0 }
            var found = false
            var visits = 0

            mutating func visit(_ record: UnsafePointer<TreePoint>, network: UInt32, chordSquared: Double) {
                visits += 1
                let m = record.pointee.member
                guard m != member, rule[Int(m)] != .splitVenue else { return }
                let covering = ownRadius ? radius : Double(record.pointee.radius)
                guard chordSquared <= UnitVector.chordSquared(meters: covering * (1 + 1e-9)) else { return }
                found = true
                boundSquared = -1
            }
        }
        var visits = 0
        for i in 0..<points.count {
            let p = points[i]
            guard rule[Int(p.member)] != .splitVenue else { continue }
            let radius = Double(p.radius)
            var own = FirstPeer(
                member: p.member, radius: radius, rule: rule, ownRadius: true, boundSquared: UnitVector.chordSquared(meters: radius * (1 + 1e-9)))
            search(p.x, p.y, p.z, &own)
            visits += own.visits
            if !own.found {
                var covered = FirstPeer(member: p.member, radius: radius, rule: rule, ownRadius: false, boundSquared: .infinity)
                search(p.x, p.y, p.z, &covered)
                visits += covered.visits
                guard covered.found else { continue }
            }
            flags[Int(p.member)] = true
        }
        return visits
    }

    /// Sets each point's radius rule and merge flag from arrays by location number (less `memberOffset`). Only while
    /// the tree is being built: afterwards it is shared and must not change.
    func tag(rule: UnsafeBufferPointer<RadiusPolicy.Rule>, mayMerge: UnsafeBufferPointer<Bool>, memberOffset: UInt32 = 0) {
        for i in 0..<points.count {
            let m = Int(points.base[i].member - memberOffset)
            points.base[i].tag(rule: rule[m], mayMerge: mayMerge[m])
        }
    }

    /// Starts loading the root node (see `LocationIndex.prefetchNetwork`).
    @inline(__always)
    func prefetchRoot() {
        if !isEmpty { nodes.prefetch(node: 0) }
    }

    /// Starts loading what searching a child will read first: its node, or its leaf's first points (the hardware
    /// prefetcher follows a leaf's sequential reads on its own).
    @inline(__always)
    private func prefetch(_ child: Pending, _ points: UnsafePointer<TreePoint>, _ networks: UnsafePointer<UInt32>?) {
        if Int(child.level) < levels {
            nodes.prefetch(node: levelStart[Int(child.level)] + Int(child.index))
        } else {
            let first = leafStart(Int(child.index))
            oncue_prefetch_lines(points + first, 3)
            // A leaf's networks: sixteen to a cache line.
            if let networks { oncue_prefetch(networks + first) }
        }
    }
}

/// Where each stored level of a tree starts in its nodes, held in the tree itself rather than in an array of its own.
struct LevelStarts {
    /// Stored levels a tree can have: 16^8 leaves are far more than `TreePoint.memberLimit` points fill.
    static let capacity = 8
    private var starts: SIMD8<Int32>

    init(_ starts: [Int]) {
        precondition(starts.count <= Self.capacity && starts.allSatisfy { $0 < Int(Int32.max) }, "a tree deeper than its level table")
        self.starts = SIMD8()
        for (l, s) in starts.enumerated() { self.starts[l] = Int32(s) }
    }

    subscript(_ level: Int) -> Int {
        @inline(__always) get { Int(starts[level]) }
    }
}

/// An axis-aligned box of unit vectors, with the largest region radius inside it.
struct Box {
    var lo: (Double, Double, Double)
    var hi: (Double, Double, Double)
    var maxRadius: Float

    static let empty = Box(lo: (.infinity, .infinity, .infinity), hi: (-.infinity, -.infinity, -.infinity), maxRadius: -.infinity)

    var isEmpty: Bool { lo.0 > hi.0 }

    mutating func add(_ p: TreePoint) {
        lo = (min(lo.0, p.x), min(lo.1, p.y), min(lo.2, p.z))
        hi = (max(hi.0, p.x), max(hi.1, p.y), max(hi.2, p.z))
        maxRadius = max(maxRadius, p.radius)
    }

    mutating func add(_ b: Box) {
        lo = (min(lo.0, b.lo.0), min(lo.1, b.lo.1), min(lo.2, b.lo.2))
        hi = (max(hi.0, b.hi.0), max(hi.1, b.hi.1), max(hi.2, b.hi.2))
        maxRadius = max(maxRadius, b.maxRadius)
    }
}

/// Receives the points a `KDTree.search` finds; `boundSquared` may shrink between calls.
protocol KDTreeVisitor {
    /// Squared chord beyond which no point is wanted.
    var boundSquared: Double { get }
    /// Boundary distance (d − r, metres) beyond which no point is wanted; +∞ when any will do.
    var reachMeters: Double { get }
    /// `record` is the point's place in the tree, valid as long as the tree; `network` its location's network.
    mutating func visit(_ record: UnsafePointer<TreePoint>, network: UInt32, chordSquared: Double)
}

/// What a search reads about every point it passes, in 32 bytes (two to a cache line): the unit vector, the location
/// number with the location's radius rule and merge flag in its top bits, and its region radius. The point's network
/// is its tree's (`KDTree.pointNetworks`).
struct TreePoint {
    var x: Double
    var y: Double
    var z: Double
    /// The location number in the low 28 bits, the radius rule in the next three, `mayMerge` in the top one.
    var tagged: UInt32
    var radius: Float

    /// Location numbers a tree can hold: below 2^28 (268 million locations, some 40 GB of index).
    static let memberLimit = 1 << 28

    /// Location number (position in the index's arrays).
    var member: UInt32 {
        @inline(__always) get { tagged & UInt32(Self.memberLimit - 1) }
    }

    var rule: RadiusPolicy.Rule {
        // Three bits hold every rule a location can have (`merged` is a region's, never a point's).
        RadiusPolicy.Rule(rawValue: UInt8(truncatingIfNeeded: tagged >> 28) & 7).unsafelyUnwrapped
    }

    /// Whether another location of the same network may lie within the larger of the two radii, so that the two could
    /// merge into one region. False proves they cannot: most locations have no such neighbour, and a selection then
    /// skips the merge test for them (see `KDTree.markMergeable`).
    var mayMerge: Bool { tagged >> 31 != 0 }

    init(x: Double, y: Double, z: Double, member: UInt32, radius: Float) {
        precondition(Int(member) < Self.memberLimit, "an index holds fewer than \(Self.memberLimit) locations")
        (self.x, self.y, self.z, tagged, self.radius) = (x, y, z, member, radius)
    }

    /// Sets the radius rule and the merge flag (the build works them out after the trees).
    mutating func tag(rule: RadiusPolicy.Rule, mayMerge: Bool) {
        precondition(rule.rawValue < 8, "a location's radius rule fits in three bits")
        tagged = member | UInt32(rule.rawValue) << 28 | (mayMerge ? 1 << 31 : 0)
    }
}
