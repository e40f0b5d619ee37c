import Geo

/// A region being assembled: one location's circle, possibly grown to enclose same-network near-duplicates.
///
/// A plain value with no arrays of its own (the members merged into it live in `RegionList.merged`), so
/// placing, copying and discarding drafts costs no reference counting.
struct RegionDraft {
    var lead: Candidate
    var tier: Int
    var network: UInt32
    /// How many same-network locations were merged into the lead's region.
    var mergedCount = 0
    /// How many of its circles (lead and members) later candidates are compared with (see `RegionList.mergeable`).
    var mergeableCount = 0
    /// Extra circles of a split venue (the ring circles kept, nearest the phone first).
    var partCount = 0
    /// The region's centre when merging moved it; nil while it is the lead location's own coordinate, which is read
    /// from the index's text record only when the response is written (the search has no need to touch that record).
    var movedCenter: Coordinate?
    var radius: Double
    var rule: RadiusPolicy.Rule

    var slotCount: Int { 1 + partCount }
}

/// The drafts of one selection, in placement order, and the locations merged into them.
struct RegionList {
    struct Merged {
        var region: Int
        var point: TreePoint
    }

    /// A circle a later candidate of the same network may merge with: the lead or a merged member of a region that
    /// is not a split venue, and only one with `mayMerge` set (usually none are). Kept apart from the drafts, 40 bytes
    /// each, because every candidate placed that may merge is compared with all of them.
    struct MergeableCircle {
        var x: Double
        var y: Double
        var z: Double
        var radius: Float
        var network: UInt32
        var region: Int32
    }

    var drafts: [RegionDraft] = []
    /// Usually empty (no allocation): near-duplicates are the exception.
    var merged: [Merged] = []
    var mergeable: [MergeableCircle] = []
    private(set) var slotsUsed = 0

    init(capacity: Int) {
        drafts.reserveCapacity(capacity)
    }

    /// Places `draft`; `mayMerge` says whether a later candidate of its network could overlap it.
    mutating func append(_ draft: RegionDraft, mayMerge: Bool) {
        drafts.append(draft)
        slotsUsed += draft.slotCount
        // A location without a same-network neighbour close enough to merge with can be left out: no later candidate
        // overlaps it (see `TreePoint.mayMerge`).
        if draft.rule != .splitVenue && mayMerge { addMergeable(draft.lead, radius: draft.radius, region: drafts.count - 1, limit: 1) }
    }

    /// Joins `candidate` to `region`; it becomes one of the circles later candidates merge with while the region has
    /// fewer than `mergeableLimit` (past that, a candidate overlapping only the later members forms a region of its own).
    mutating func merge(_ candidate: Candidate, radius: Double, into region: Int, mergeableLimit: Int) {
        merged.append(Merged(region: region, point: candidate.point))
        drafts[region].mergedCount += 1
        addMergeable(candidate, radius: radius, region: region, limit: mergeableLimit)
    }

    private mutating func addMergeable(_ c: Candidate, radius: Double, region: Int, limit: Int) {
        guard drafts[region].mergeableCount < limit else { return }
        drafts[region].mergeableCount += 1
        let p = c.point
        // Only same-network circles merge: the candidate's network is its region's.
        mergeable.append(MergeableCircle(x: p.x, y: p.y, z: p.z, radius: Float(radius), network: drafts[region].network, region: Int32(region)))
    }

    /// Drops the drafts from `count` on, with their merged members.
    mutating func truncate(to count: Int) {
        guard count < drafts.count else { return }
        for draft in drafts[count...] { slotsUsed -= draft.slotCount }
        drafts.removeSubrange(count...)
        merged.removeAll { $0.region >= count }
        mergeable.removeAll { $0.region >= count }
    }

    /// The members merged into region `j` (not its lead).
    func members(of j: Int) -> some Sequence<TreePoint> {
        merged.lazy.filter { $0.region == j }.map(\.point)
    }
}

/// Turns ranked candidates into regions: merges same-network circles whose centres lie within either
/// one's radius into one enclosing circle (one slot), splits venues too large for one circle into
/// overlapping circles, and stops when the slots are used.
struct RegionAssembler {
    let index: LocationIndex
    let policy: RadiusPolicy
    /// See `EngineConfiguration.mergeableCirclesPerRegion`.
    let mergeableLimit: Int
    /// Every region is at least this large (the request's `min_radius_meters`), before any merging.
    let radiusFloor: Double
    /// Two circles farther apart than this (squared chord) cannot overlap: the largest radius, floored.
    private let reach: Double

    init(index: LocationIndex, policy: RadiusPolicy, mergeableLimit: Int = .max, radiusFloor: Double = 0) {
        self.index = index
        self.policy = policy
        self.mergeableLimit = mergeableLimit
        self.radiusFloor = radiusFloor
        reach = max(index.maxRadiusChordSquared, UnitVector.chordSquared(meters: radiusFloor) * (1 + 1e-9))
    }

    /// Consumes `candidates` in rank order; returns how many were used (merged or placed).
    func place(_ candidates: UnsafeBufferPointer<Candidate>, tier: Int, slots: Int, into regions: inout RegionList, phone: Coordinate) -> Int {
        var used = 0
        for c in candidates {
            if regions.slotsUsed >= slots { break }
            let g = Int(c.member)
            let ownRadius = Double(c.point.radius)
            let r = max(ownRadius, radiusFloor)
            let rule = c.point.rule
            let network = c.network
            // The index proves which locations have no same-network neighbour within their own radii; a floor that
            // grows a radius voids that proof, so every candidate is then checked.
            let mayMerge = c.point.mayMerge || r > ownRadius
            used += 1
            if rule != .splitVenue && mayMerge, let j = firstOverlapping(c, r, network: network, in: regions) {
                regions.merge(c, radius: r, into: j, mergeableLimit: mergeableLimit)
                merge(c.point, index.coordinate(g), r, into: &regions.drafts[j])
                continue
            }
            var draft = RegionDraft(lead: c, tier: tier, network: network, radius: r, rule: rule)
            // A venue splits into circles of half its radius unless the floor makes one circle as large as the venue.
            if rule == .splitVenue && radiusFloor < ownRadius {
                draft.radius = max(Self.partRadius(venue: ownRadius), radiusFloor)
                draft.partCount = min(max(0, policy.splitCircleCount - 1), max(0, slots - regions.slotsUsed - 1))
            }
            regions.append(draft, mayMerge: mayMerge)
        }
        return used
    }

    /// The first mergeable region of the point's network with a member whose circle holds the new centre,
    /// or whose centre the new circle holds. Split venues never merge.
    private func firstOverlapping(_ candidate: Candidate, _ r: Double, network: UInt32, in regions: RegionList) -> Int? {
        let p = candidate.point
        let reach = self.reach
        return regions.mergeable.withUnsafeBufferPointer { circles -> Int? in
            // Most candidates are near no circle of their network: one pass without a branch per circle says so
            // (whether a circle is near is a coin toss the branch predictor loses).
            var near: UInt8 = 0
            for c in circles {
                let dx = p.x - c.x
                let dy = p.y - c.y
                let dz = p.z - c.z
                near |= (dx * dx + dy * dy + dz * dz <= reach ? 1 : 0) & (c.network == network ? 1 : 0)
            }
            guard near != 0 else { return nil }
            var found: Int32 = .max
            for c in circles where c.network == network && c.region < found {
                let dx = p.x - c.x
                let dy = p.y - c.y
                let dz = p.z - c.z
                let c2 = dx * dx + dy * dy + dz * dz
                // Farther apart than the largest radius in the index: cannot overlap (no trigonometry needed).
                if c2 > reach { continue }
                if UnitVector.meters(chordSquared: c2) <= max(r, Double(c.radius)) { found = c.region }
            }
            return found == .max ? nil : Int(found)
        }
    }

    /// Grows the region to the smallest circle enclosing both its circle and the new one.
    private func merge(_ point: TreePoint, _ center: Coordinate, _ r: Double, into region: inout RegionDraft) {
        let current = region.movedCenter ?? index.coordinate(Int(region.lead.member))
        let d = Sphere.distance(current, center)
        if d + r <= region.radius { return }
        if d + region.radius <= r {
            region.movedCenter = center
            region.radius = r
        } else {
            let newRadius = (d + region.radius + r) / 2
            let bearing = Sphere.initialBearing(from: current, to: center)
            region.movedCenter = Sphere.destination(from: current, meters: newRadius - region.radius, bearing: bearing)
            // A centimetre of slack absorbs rounding in the great-circle maths.
            region.radius = newRadius + 0.01
        }
        region.rule = .merged
    }

    /// A venue of radius V is covered by a centre circle and six around it, each of radius V/2 (with 1 % slack),
    /// the ring at V·√3/2 from the centre.
    static func partRadius(venue: Double) -> Double { venue / 2 * 1.01 }

    /// The ring circles of a split venue of radius `venue` centred at `center`, nearest the phone first, each with
    /// its id suffix (2…): the draft keeps the first `partCount`.
    static func ringParts(center: Coordinate, venue: Double, phone: Coordinate, policy: RadiusPolicy) -> [(suffix: Int, center: Coordinate)] {
        let count = max(0, policy.splitCircleCount - 1)
        var ring: [(suffix: Int, center: Coordinate)] = []
        for k in 0..<count {
            let bearing = Double(k) * 360 / Double(count)
            ring.append((k + 2, Sphere.destination(from: center, meters: venue * 3.0.squareRoot() / 2, bearing: bearing)))
        }
        ring.sort { Sphere.distance(phone, $0.center) < Sphere.distance(phone, $1.center) }
        return ring
    }
}
