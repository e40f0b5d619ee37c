import Foundation
import Geo
import LocationStore
import OnCueContract

/// Chooses the regions for one request from one index snapshot (docs/architecture.md, "Index and selection").
///
/// Tier 1: locations of the card networks, ranked by boundary distance ÷ boosts, within the radius.
/// Tier 2 (when `include_other_networks`): every other network, same ranking, in the slots left.
/// Then the refresh distance D over the card networks' unmonitored locations.
///
/// Not copyable: the closures a selection runs its searches in would otherwise copy it, and count a reference to the
/// index and the configuration with every copy.
struct Prioritizer: ~Copyable {
    let index: LocationIndex
    let configuration: EngineConfiguration

    init(index: LocationIndex, configuration: EngineConfiguration) {
        self.index = index
        self.configuration = configuration
    }

    /// Candidates fetched beyond the free slots on the first try; merging near-duplicates may need more.
    static let candidateSlack = 3

    /// Whether D may be taken from the tier-1 collection when that provably equals the search (tests turn it off
    /// to compare the two).
    var usesCollectionBound = true

    func select(_ p: RefreshParameters, now: Date) -> RegionSelection {
        let q = UnitVector(latitude: p.center.latitude, longitude: p.center.longitude)
        let boosts = QueryBoosts.of(p, index: index, configuration: configuration)
        let floor = radiusFloor(p)
        let assembler = RegionAssembler(
            index: index, policy: index.policy, mergeableLimit: configuration.mergeableCirclesPerRegion, radiusFloor: floor)
        let slots = p.reserveRefreshRegion ? p.maxRegions - 1 : p.maxRegions
        var cards: [UInt32] = []
        var unknown: [String] = []
        var resolved: [ResolvedNetwork] = []
        for id in p.cardNetworks {
            guard let k = index.networkNumber(named: id) else {
                if !unknown.contains(id) { unknown.append(id) }
                continue
            }
            resolved.append(ResolvedNetwork(spelling: id, networkId: index.networks[Int(k)].id))
            if !cards.contains(k) { cards.append(k) }
        }
        var regions = RegionList(capacity: p.maxRegions)
        var visits = VisitAllowance(left: configuration.visitBudget)

        var tier1 = TierOneCollection()
        if slots > 0 && !cards.isEmpty {
            // Looking as far as a location whose region starts within the largest refresh distance lets a collection
            // that does not fill up settle that distance too (see `refreshDistance`).
            var largestRadius = floor
            for k in cards {
                index.prefetchNetwork(k)
                largestRadius = max(largestRadius, index.networkMaxRadius(k))
            }
            let lookout = configuration.refreshCeilingMeters + uncertainty(p) + largestRadius
            tier1 = fill(
                &regions, tier: 1, slots: slots, radiusMeters: p.radiusMeters, phone: p.center, boosts: boosts, assembler: assembler,
                lookout: lookout, visits: &visits
            ) { collector in
                for k in cards where index.hasLocations(k) {
                    collector.retarget(maxBoost: boosts.maxBoost(network: k), maxRadius: index.networkMaxRadius(k))
                    index.searchNetwork(k, q, &collector)
                }
            }
        }
        var limited = tier1.budgetReached
        if p.includeOtherNetworks && regions.slotsUsed < slots {
            limited =
                fill(
                    &regions, tier: 2, slots: slots, radiusMeters: p.radiusMeters, phone: p.center, boosts: boosts, assembler: assembler,
                    lookout: 0, excluded: cards, visits: &visits
                ) { collector in
                    collector.retarget(maxBoost: boosts.maxBoost(network: nil), maxRadius: index.globalMaxRadius)
                    index.searchAll(q, &collector)
                }
                .budgetReached || limited
        }

        let (distance, fromCollection, searchVisits) = refreshDistance(
            cards: cards, regions: regions, collection: tier1, q: q, p: p, boosts: boosts)
        // The response reads each chosen location's text record: start loading them all now, side by side.
        for draft in regions.drafts { index.prefetchText(draft.lead.member) }
        let floorMeters = configuration.refreshFloorMeters
        let refreshAfter = max(floorMeters, min(distance, configuration.refreshCeilingMeters)).rounded(.down)
        let reason: CoverageReason? =
            distance >= floorMeters ? nil : distance + uncertainty(p) >= floorMeters ? .accuracy : .unmonitoredNearby
        return RegionSelection(
            index: index, regions: regions, mergedIdsLimit: configuration.mergedIdsLimit,
            explanations: p.explain ? explanations(regions, boosts: boosts, floor: floor) : [],
            phone: p.center, reservesRefreshRegion: p.reserveRefreshRegion, refreshAfterMeters: refreshAfter,
            coverageGuaranteed: distance >= floorMeters, coverageReason: reason, cacheTTLSeconds: configuration.cacheTTLSeconds,
            serverTime: ServerTime.string(now), selectionLimited: limited, unknownNetworks: unknown,
            resolvedNetworks: resolved.sorted { $0.spelling < $1.spelling },
            refreshDistanceFromCollection: fromCollection,
            visitedLocations: visits.spent + searchVisits)
    }

    /// What the tier-1 collection leaves for the refresh distance.
    struct TierOneCollection {
        /// The smallest d − r among the candidates it collected but did not place or merge (not monitored), and among
        /// the stores closed for the lookahead that it saw but did not keep.
        var nearestUnmonitored = Double.infinity
        /// Whether the collection was cut off at its limit, and then its last candidate's distance and d − r.
        var full = false
        var last: (distance: Double, key: Double)?
        /// When it was not full: the smallest d − r of the card locations beyond the radius, up to the collection's lookout.
        var nearestBeyond: Double?
        /// Merges consumed `candidateBudget` candidates before the slots filled, or the search stopped at the visit
        /// budget: the tier placed what it had.
        var budgetReached = false
    }

    /// Collects ranked candidates and places them, fetching more when merges used them all up before the slots filled,
    /// up to `candidateBudget` of them, and looking at no more locations than `visits` allows.
    private func fill(
        _ regions: inout RegionList, tier: Int, slots: Int, radiusMeters: Double, phone: Coordinate, boosts: QueryBoosts,
        assembler: RegionAssembler, lookout: Double, excluded: [UInt32] = [], visits: inout VisitAllowance,
        search: (inout RankedCollector) -> Void
    ) -> TierOneCollection {
        let budget = max(configuration.candidateBudget, slots + Self.candidateSlack)
        var want = min(slots - regions.slotsUsed + Self.candidateSlack, budget)
        var cutBeforeItCould = false
        let kept = regions.drafts.count
        while true {
            // The candidates live on the stack: they are placed and summed up before this returns.
            let done = withUnsafeTemporaryAllocation(of: Candidate.self, capacity: want) { storage -> TierOneCollection? in
                var collector = RankedCollector(
                    storage: storage, index: index, boosts: boosts, radiusLimit: radiusMeters,
                    maxBoost: 1, maxRadius: 0, excluded: excluded, lookout: lookout, radiusFloor: assembler.radiusFloor,
                    visitBudget: visits.left)
                search(&collector)
                visits.spend(collector.visits)
                let ranked = collector.ranked()
                let consumed = assembler.place(ranked, tier: tier, slots: slots, into: &regions, phone: phone)
                let exhausted = regions.slotsUsed < slots && collector.isFull && consumed == ranked.count
                guard !exhausted || want >= budget || (collector.cutOff && !visits.refillable) else {
                    cutBeforeItCould = collector.cutOff
                    return nil
                }
                // A search cut off proves nothing about what it did not see: neither that the collection ranked every
                // card location (`full`) nor that it saw every one beyond the radius (`nearestBeyond`).
                var outcome = TierOneCollection(
                    nearestUnmonitored: collector.nearestClosedUnkept, full: collector.isFull && !collector.cutOff,
                    nearestBeyond: collector.isFull || collector.cutOff ? nil : collector.nearestBeyond)
                outcome.budgetReached = exhausted || collector.cutOff
                let floor = assembler.radiusFloor
                for c in ranked[consumed...] {
                    outcome.nearestUnmonitored = min(outcome.nearestUnmonitored, c.distance - max(Double(c.point.radius), floor))
                }
                if let w = ranked.last { outcome.last = (w.distance, w.distance - max(Double(w.point.radius), floor)) }
                return outcome
            }
            if let done { return done }
            // Merges used up every candidate before the slots filled: start this tier again with more. Only this
            // tier's regions changed (a merge joins regions of one network, and a network belongs to one tier).
            regions.truncate(to: kept)
            want = min(want * 2, budget)
            if cutBeforeItCould {
                // The pass read its whole visit allowance without a bound (a crowd of ties, or every store near the
                // phone closed, when an open one anywhere in the radius would rank first): doubling would find the
                // allowance spent. One last pass takes the whole candidate budget with one fresh allowance.
                want = budget
                visits.refill(configuration.visitBudget)
            }
        }
    }

    /// How far the phone may be from where it says (metres): the guarantee must hold for its true position, so every
    /// distance is shortened by the whole accuracy the phone sent (no cap: a cap would promise coverage the fix cannot
    /// back). A poor fix then has no guarantee, and the answer says why (`CoverageReason.accuracy`).
    func uncertainty(_ p: RefreshParameters) -> Double { max(p.accuracyMeters ?? 0, 0) }

    /// The request's radius floor, or the server's when it names none.
    func radiusFloor(_ p: RefreshParameters) -> Double { p.minRadiusMeters ?? configuration.minRadiusMeters }

    /// D = min over unmonitored card-network locations of (distance − radius), less the fix accuracy; whether
    /// the tier-1 collection settled it without a search; and the locations its searches looked at.
    private func refreshDistance(
        cards: [UInt32], regions: RegionList, collection: TierOneCollection,
        q: UnitVector, p: RefreshParameters, boosts: QueryBoosts
    ) -> (Double, Bool, Int) {
        let uncertainty = self.uncertainty(p)
        let ceiling = configuration.refreshCeilingMeters
        guard !cards.isEmpty else { return (ceiling, false, 0) }
        // Searching to ceiling + uncertainty makes the result exactly min(D − uncertainty, ceiling).
        var best = ceiling + uncertainty
        // Candidates collected for tier 1 but not monitored bound D from above before any search.
        best = min(best, collection.nearestUnmonitored)
        if usesCollectionBound {
            // A collection that did not fill up holds every card location within the radius, and saw every one beyond
            // it whose region starts within ceiling + uncertainty: those are all D can come from.
            if let beyond = collection.nearestBeyond { return (min(best, beyond) - uncertainty, true, 0) }
            if collectionBoundsTheRest(cards: cards, collection: collection, best: best, p: p, boosts: boosts) {
                return (min(best, ceiling + uncertainty) - uncertainty, true, 0)
            }
        }
        let floor = radiusFloor(p)
        var covered: [UInt32] = []
        covered.reserveCapacity(regions.drafts.count + regions.merged.count)
        for draft in regions.drafts where draft.tier == 1 { covered.append(draft.lead.member) }
        for m in regions.merged where regions.drafts[m.region].tier == 1 { covered.append(m.point.member) }
        covered.sort()
        // Any D (less the fix's uncertainty) under the floor answers alike: the floor as refresh distance, no guarantee,
        // an unmonitored location nearby. Rows piled where the phone is would otherwise all be read to find the least.
        let settled = configuration.refreshFloorMeters
        var visits = 0
        for k in cards where index.hasLocations(k) {
            if best < settled { break }
            var finder = NearestBoundary(
                maxRadius: index.networkMaxRadius(k), covered: covered, ceiling: best, radiusFloor: floor, settledBelow: settled)
            index.searchNetwork(k, q, &finder)
            best = min(best, finder.best)
            visits += finder.visits
        }
        return (best - uncertainty, false, visits)
    }

    /// Whether every card-network location the tier-1 collection did not keep lies farther from its boundary
    /// (d − r) than `best`, the smallest d − r among the collected ones not monitored, so that D = `best` needs no
    /// search of its own. That holds when
    /// - the collection was cut off at its limit, so every card location within the request's radius that it did
    ///   not keep ranks after its last candidate w;
    /// - every card network that has locations has the same boost, so ranking is by max(0, d − r) alone, and w's
    ///   d − r is above 0, so ranking after w means d − r ≥ w's (to within rounding in the score and in the
    ///   search's pruning: `best` must be below w's by a margin far larger than that);
    /// - w's d − r is at most the radius less the largest card region, so a location beyond the radius is farther.
    ///
    /// With opening hours, a store closed for the lookahead ranks after every open one, so "ranks after w" no longer
    /// bounds its d − r; but the collector saw every such store it did not keep unless the search pruned it, which
    /// it does only beyond w's reach (d − r above w's), and `best` already holds the smallest d − r of those it saw.
    private func collectionBoundsTheRest(
        cards: [UInt32], collection: TierOneCollection, best: Double, p: RefreshParameters,
        boosts: QueryBoosts
    ) -> Bool {
        guard collection.full, let w = collection.last else { return false }
        var boost: Double?
        var largestRadius = radiusFloor(p)
        for k in cards where index.hasLocations(k) {
            let b = boosts.combined(k)
            guard boost == nil || boost == b else { return false }
            boost = b
            largestRadius = max(largestRadius, index.networkMaxRadius(k))
        }
        let key = w.key
        let margin = 1e-9 * max(1, w.distance)
        return key > 0 && key <= p.radiusMeters - largestRadius && best <= key - margin
    }

    /// The score parts of each draft's lead, for `explain`.
    private func explanations(_ regions: RegionList, boosts: QueryBoosts, floor: Double) -> [Region.Explanation] {
        regions.drafts.map { draft in
            let c = draft.lead
            let own = Double(c.point.radius)
            let closed = c.score >= QueryBoosts.closedPenalty
            let hours = index.openingHours.text(of: Int(c.member))
            return Region.Explanation(
                tier: draft.tier, distanceMeters: (c.distance * 10).rounded() / 10,
                boundaryDistanceMeters: (max(0, c.distance - max(own, floor)) * 10).rounded() / 10,
                radiusBeforeFloorMeters: own.rounded(.up), radiusAfterFloorMeters: max(own, floor).rounded(.up),
                visitBoost: boosts.visit(draft.network), timeOfDayBoost: boosts.time(draft.network),
                score: ((closed ? c.score - QueryBoosts.closedPenalty : c.score) * 10).rounded() / 10, radiusRule: draft.rule.name,
                localDensity: Int(index.density[Int(c.member)]),
                placeDensity: Int(index.placeDensity[Int(c.member)]),
                openingHours: hours, closedSoon: boosts.hoursMinute != nil && hours != nil ? closed : nil)
        }
    }
}
