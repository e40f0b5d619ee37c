import Geo

/// A scored candidate region: lower `score` ranks first, then nearer, then smaller id.
///
/// It points at its location's record in the tree rather than holding a copy: 32 bytes rather than 56, so that the
/// 23 candidates of a selection fit in the kilobyte `withUnsafeTemporaryAllocation` takes from the stack (they went
/// to malloc), and keeping them sorted moves less. (`@unchecked Sendable`: the record is never written after the
/// build, and lives as long as the index, which every holder of a candidate, such as a `RegionSelection`, holds.)
struct Candidate: @unchecked Sendable {
    let record: UnsafePointer<TreePoint>
    var point: TreePoint { record.pointee }
    var member: UInt32 { record.pointee.member }
    let network: UInt32
    var distance: Double
    var score: Double
}

/// Keeps the `limit` best-ranked locations a k-d tree search finds, and tightens the search bound to
/// what could still beat the worst of them: a location ranks by boundary distance max(0, d − r) ÷ boost,
/// so nothing farther than `worst score × largest boost + largest radius` can enter.
struct RankedCollector: KDTreeVisitor {
    let index: LocationIndex
    let boosts: QueryBoosts
    let limit: Int
    let radiusLimit: Double
    private(set) var maxBoost: Double
    private(set) var maxRadius: Double
    /// Networks to skip (the card networks, when collecting the other tier).
    let excluded: [UInt32]
    /// Every region is at least this large (the request's `min_radius_meters`); 0 leaves the policy's radii.
    let radiusFloor: Double
    var boundSquared: Double
    /// Once full, nothing ranks before the worst kept unless its boundary distance is within worst score × largest boost.
    private var scoreReach = Double.infinity
    /// What the tree prunes by: its nodes know the policy's radii, not the floor, and a node whose points are all
    /// smaller than the floor is `radiusFloor` nearer to entering than those radii say.
    var reachMeters: Double { scoreReach + radiusFloor }
    /// Room for `limit` candidates, owned by the caller: the first `count` are the best so far, best first (a heap,
    /// worst on top, past `heapFrom`).
    private let storage: UnsafeMutablePointer<Candidate>
    private(set) var count = 0
    /// While the collector is not full, it also looks this far (metres) for `nearestBeyond`.
    let lookout: Double
    /// The smallest boundary distance d − r among the locations seen beyond the radius. Complete up to `lookout` when
    /// the collector ends up not full (until then nothing tightens the bound), so that the refresh distance needs no
    /// search of its own.
    private(set) var nearestBeyond = Double.infinity
    /// The smallest boundary distance d − r among the stores closed for the lookahead that it saw and did not keep
    /// (turned away, or pushed out by better ones): they rank after every open one whatever their distance, so the
    /// refresh distance's shortcut needs them apart (`Prioritizer.refreshDistance`).
    private(set) var nearestClosedUnkept = Double.infinity
    /// Locations this collector may still look at; past them the search stops (`cutOff`).
    private var visitsLeft: Int
    /// Locations looked at.
    private(set) var visits = 0
    /// Whether the search stopped at the visit budget: the candidates are then the best of what it saw, not of all.
    private(set) var cutOff = false

    /// A collector of at most `storage.count` candidates, kept in `storage` (which must outlive it).
    init(
        storage: UnsafeMutableBufferPointer<Candidate>, index: LocationIndex, boosts: QueryBoosts, radiusLimit: Double,
        maxBoost: Double, maxRadius: Double, excluded: [UInt32] = [], lookout: Double = 0, radiusFloor: Double = 0,
        visitBudget: Int = .max
    ) {
        self.visitsLeft = visitBudget
        self.storage = storage.baseAddress!
        self.limit = storage.count
        self.index = index
        self.boosts = boosts
        self.radiusLimit = radiusLimit
        self.maxBoost = maxBoost
        self.maxRadius = max(maxRadius, radiusFloor)
        self.excluded = excluded
        self.radiusFloor = radiusFloor
        self.lookout = lookout
        self.boundSquared = UnitVector.chordSquared(meters: max(radiusLimit, lookout))
    }

    /// Whether the collector holds `limit` candidates (more may exist beyond them).
    var isFull: Bool { count >= limit }

    /// Past this many candidates the collector keeps them as a heap, worst on top, and sorts them once at the end:
    /// kept sorted, each of the thousands a 2,048-candidate pass takes in a crowded square metre moved a thousand
    /// others (most of that pass's time). Up to it, a short sorted list is faster.
    static let heapFrom = 64

    /// Whether the storage is a heap (worst first) rather than a sorted list (best first).
    private var isHeap: Bool { limit > Self.heapFrom }

    /// The worst of a full collector.
    @inline(__always)
    private var worst: Candidate { isHeap ? storage[0] : storage[limit - 1] }

    /// The candidates collected, best first (valid while the storage is). Sorts a heap's once: call after the search.
    mutating func ranked() -> UnsafeBufferPointer<Candidate> {
        if isHeap {
            let index = self.index
            var kept = UnsafeMutableBufferPointer(start: storage, count: count)
            kept.sort { Self.ranksBefore($0, $1, in: index) }
        }
        return UnsafeBufferPointer(start: storage, count: count)
    }

    @inline(__always)
    static func ranksBefore(_ a: Candidate, _ b: Candidate, in index: LocationIndex) -> Bool {
        if a.score != b.score { return a.score < b.score }
        if a.distance != b.distance { return a.distance < b.distance }
        return index.id(Int(a.member)) < index.id(Int(b.member))
    }

    @inline(__always)
    mutating func visit(_ record: UnsafePointer<TreePoint>, network: UInt32, chordSquared: Double) {
        visits &+= 1
        if visits > visitsLeft { return stop() }
        let point = record.pointee
        if !excluded.isEmpty && excluded.contains(network) { return }
        let d = UnitVector.meters(chordSquared: chordSquared)
        if d > radiusLimit {
            nearestBeyond = min(nearestBeyond, d - max(Double(point.radius), radiusFloor))
            return
        }
        var score = max(0, d - max(Double(point.radius), radiusFloor))
        // Most requests carry no boost: no division then (the slowest step here; x / 1 is x).
        if !boosts.isNeutral { score = Self.rescore(score, boosts: boosts, network: network, location: point.member) }
        let c = Candidate(record: record, network: network, distance: d, score: score)
        let full = count >= limit
        if full && !Self.ranksBefore(c, worst, in: index) {
            if score >= QueryBoosts.closedPenalty { noteClosedUnkept(c) }
            return
        }
        if full && worst.score >= QueryBoosts.closedPenalty { noteClosedUnkept(worst) }
        if isHeap { return keepInHeap(c, replacingWorst: full) }
        // Insertion into a short sorted list, in place: the new candidate enters at the end (or replaces the
        // worst) and moves up past the ones it ranks before.
        var i = full ? limit - 1 : count
        if !full { count += 1 }
        assert(i >= 0 && i < limit, "a candidate written outside the collector's storage")
        while i > 0 && Self.ranksBefore(c, storage[i - 1], in: index) {
            storage[i] = storage[i - 1]
            i -= 1
        }
        storage[i] = c
        if count >= limit { tighten() }
    }

    /// Adds `c` to the heap (worst on top), in place of the worst when full.
    @inline(never)
    private mutating func keepInHeap(_ c: Candidate, replacingWorst full: Bool) {
        let index = self.index
        if full {
            // Sift down from the top: the child that ranks last moves up while it ranks after c.
            var i = 0
            while true {
                var child = 2 * i + 1
                if child >= count { break }
                if child + 1 < count && Self.ranksBefore(storage[child], storage[child + 1], in: index) { child += 1 }
                guard Self.ranksBefore(c, storage[child], in: index) else { break }
                storage[i] = storage[child]
                i = child
            }
            storage[i] = c
        } else {
            // Sift up from the end: a parent that ranks before c moves down.
            var i = count
            count += 1
            while i > 0 {
                let parent = (i - 1) / 2
                guard Self.ranksBefore(storage[parent], c, in: index) else { break }
                storage[i] = storage[parent]
                i = parent
            }
            storage[i] = c
        }
        if count >= limit { tighten() }
    }

    @inline(never)
    private mutating func noteClosedUnkept(_ c: Candidate) {
        nearestClosedUnkept = min(nearestClosedUnkept, c.distance - max(Double(c.point.radius), radiusFloor))
    }

    /// Out of line, so that the compiler does not compute it ahead of the test that makes it unnecessary.
    @inline(never)
    private static func rescore(_ boundaryDistance: Double, boosts: QueryBoosts, network: UInt32, location: UInt32) -> Double {
        boosts.score(boundaryDistance: boundaryDistance, network: network, location: location)
    }

    @inline(__always)
    private mutating func tighten() {
        let worst = self.worst
        scoreReach = worst.score * maxBoost
        var reach = min(radiusLimit, scoreReach + maxRadius)
        // A worst kept at score 0 (the phone inside its region) is beaten only by another at score 0 and no farther:
        // in a dense block every store near the phone scores 0, and the score alone would bound nothing. Widened by a
        // billionth, as the chord and the metres convert with rounding, and a tie at equal distance must be seen.
        if worst.score == 0 { reach = min(reach, worst.distance * (1 + 1e-9) + 1e-6) }
        boundSquared = UnitVector.chordSquared(meters: reach)
    }

    /// Ends the search: every bound below anything a subtree or a point can hold.
    @inline(never)
    private mutating func stop() {
        cutOff = true
        scoreReach = -.infinity
        boundSquared = -1
    }

    /// Prepares the collector for a search of another tree (several card networks share one ranking).
    mutating func retarget(maxBoost: Double, maxRadius: Double) {
        guard !cutOff else { return }
        self.maxBoost = maxBoost
        self.maxRadius = max(maxRadius, radiusFloor)
        if count >= limit {
            tighten()
        } else {
            scoreReach = .infinity
            boundSquared = UnitVector.chordSquared(meters: max(radiusLimit, lookout))
        }
    }
}
