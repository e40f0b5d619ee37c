import Geo

/// A region being assembled: one location's circle, possibly grown to enclose same-network near-duplicates.
struct RegionDraft {
    var lead: Candidate
    var tier: Int
    var network: UInt32
    /// Same-network locations merged into the lead's region (usually none: an empty array costs no allocation).
    var merged: [TreePoint] = []
    var center: Coordinate
    var radius: Double
    var rule: RadiusPolicy.Rule
    /// Extra circles of a split venue: (suffix, centre, radius).
    var parts: [(suffix: Int, center: Coordinate, radius: Double)] = []

    var slotCount: Int { 1 + parts.count }
}

/// Turns ranked candidates into regions: merges same-network circles whose centres lie within either
/// one's radius into one enclosing circle (one slot), splits venues too large for one circle into
/// overlapping circles, and stops when the slots are used.
struct RegionAssembler {
    let index: LocationIndex
    let policy: RadiusPolicy

    /// Consumes `candidates` in rank order; returns how many were used (merged or placed).
    func place(_ candidates: [Candidate], tier: Int, slots: Int, into regions: inout [RegionDraft], phone: Coordinate) -> Int {
        var used = 0
        var totalSlots = regions.reduce(0) { $0 + $1.slotCount }
        // Networks of mergeable regions (split venues never merge), kept flat so the scan below stays cheap.
        var mergeable: [UInt32] = regions.map { $0.parts.isEmpty && $0.rule != .splitVenue ? $0.network : UInt32.max }
        for c in candidates {
            if totalSlots >= slots { break }
            let g = Int(c.member)
            let network = c.point.network
            let r = Double(c.point.radius)
            let rule = c.point.rule
            used += 1
            if rule != .splitVenue, let j = firstOverlapping(c.point, r, network: network, mergeable: mergeable, regions: regions) {
                merge(c.point, index.texts[g].coordinate, r, into: &regions[j])
                continue
            }
            let center = index.texts[g].coordinate
            var draft = RegionDraft(lead: c, tier: tier, network: network, center: center, radius: r, rule: rule)
            if rule == .splitVenue {
                split(&draft, available: slots - totalSlots, phone: phone)
            }
            totalSlots += draft.slotCount
            mergeable.append(rule == .splitVenue ? UInt32.max : network)
            regions.append(draft)
        }
        return used
    }

    /// The first region of `network` with a member whose circle holds the new centre, or whose centre the new circle holds.
    /// Reads members in place: copying a draft to test it cost more than the test.
    private func firstOverlapping(_ p: TreePoint, _ r: Double, network: UInt32, mergeable: [UInt32], regions: [RegionDraft]) -> Int? {
        regions.withUnsafeBufferPointer { regions in
            for j in mergeable.indices where mergeable[j] == network {
                if overlaps(p, r, regions[j].lead.point) { return j }
                for m in regions[j].merged where overlaps(p, r, m) { return j }
            }
            return nil
        }
    }

    @inline(__always)
    private func overlaps(_ p: TreePoint, _ r: Double, _ m: TreePoint) -> Bool {
        let dx = p.x - m.x, dy = p.y - m.y, dz = p.z - m.z
        let c2 = dx * dx + dy * dy + dz * dz
        // Farther apart than the largest radius in the index: cannot overlap (no trigonometry needed).
        if c2 > index.maxRadiusChordSquared { return false }
        return UnitVector.meters(chordSquared: c2) <= max(r, Double(m.radius))
    }

    /// Grows the region to the smallest circle enclosing both its circle and the new one.
    private func merge(_ point: TreePoint, _ center: Coordinate, _ r: Double, into region: inout RegionDraft) {
        region.merged.append(point)
        let d = Sphere.distance(region.center, center)
        if d + r <= region.radius { return }
        if d + region.radius <= r {
            region.center = center
            region.radius = r
        } else {
            let newRadius = (d + region.radius + r) / 2
            let bearing = Sphere.initialBearing(from: region.center, to: center)
            region.center = Sphere.destination(from: region.center, meters: newRadius - region.radius, bearing: bearing)
            // A centimetre of slack absorbs rounding in the great-circle maths.
            region.radius = newRadius + 0.01
        }
        region.rule = .merged
    }

    /// A venue of radius V is covered by a centre circle and six around it, each of radius V/2 (with 1 % slack),
    /// the ring at V·√3/2 from the centre. Parts nearest the phone are kept when slots run short.
    private func split(_ draft: inout RegionDraft, available: Int, phone: Coordinate) {
        let venue = draft.radius
        let partRadius = venue / 2 * 1.01
        var ring: [(suffix: Int, center: Coordinate, radius: Double)] = []
        let count = max(0, policy.splitCircleCount - 1)
        for k in 0..<count {
            let bearing = Double(k) * 360 / Double(count)
            ring.append((k + 2, Sphere.destination(from: draft.center, meters: venue * 3.0.squareRoot() / 2, bearing: bearing), partRadius))
        }
        ring.sort { Sphere.distance(phone, $0.center) < Sphere.distance(phone, $1.center) }
        draft.radius = partRadius
        draft.parts = Array(ring.prefix(max(0, available - 1)))
    }
}
