import Foundation
import Geo
import LocationStore

/// Chooses the regions for one request from one index snapshot (see DESIGN.md, "Prioritizer").
///
/// Tier 1: locations of the card networks, ranked by boundary distance ÷ boosts, within the radius.
/// Tier 2 (when `include_other_networks`): every other network, same ranking, in the slots left.
/// Then the refresh distance D over the card networks' unmonitored locations.
struct Prioritizer {
    let index: LocationIndex
    let configuration: EngineConfiguration

    /// Candidates fetched beyond the free slots on the first try; merging near-duplicates may need more.
    static let candidateSlack = 3

    func respond(_ p: RefreshParameters, now: Date) -> RegionRefreshResponse {
        let q = UnitVector.from(latitude: p.center.latitude, longitude: p.center.longitude)
        let boosts = QueryBoosts(parameters: p, index: index, table: configuration.boosts)
        let assembler = RegionAssembler(index: index, policy: index.policy)
        let slots = p.reserveRefreshRegion ? p.maxRegions - 1 : p.maxRegions
        var cards: [UInt32] = []
        for id in p.cardNetworks { if let k = index.networkNumber[id], !cards.contains(k) { cards.append(k) } }
        var regions: [RegionDraft] = []
        regions.reserveCapacity(p.maxRegions)

        var cardCandidates: [Candidate] = []
        if slots > 0 && !cards.isEmpty {
            cardCandidates = fill(&regions, tier: 1, slots: slots, p: p, q: q, boosts: boosts, assembler: assembler) { collector in
                for k in cards {
                    let tree = index.networkTrees[Int(k)]
                    guard !tree.isEmpty else { continue }
                    collector.retarget(maxBoost: boosts.maxBoost(network: k), maxRadius: tree.maxRadius)
                    tree.search(q.x, q.y, q.z, &collector)
                }
            }
        }
        if p.includeOtherNetworks && used(regions) < slots {
            _ = fill(&regions, tier: 2, slots: slots, p: p, q: q, boosts: boosts, assembler: assembler, excluded: cards) { collector in
                collector.retarget(maxBoost: boosts.maxBoost(network: nil), maxRadius: index.globalTree.maxRadius)
                index.globalTree.search(q.x, q.y, q.z, &collector)
            }
        }

        let distance = refreshDistance(cards: cards, regions: regions, candidates: cardCandidates, q: q, accuracy: p.accuracyMeters)
        let floorMeters = configuration.refreshFloorMeters
        let refreshAfter = max(floorMeters, min(distance, configuration.refreshCeilingMeters)).rounded(.down)
        var output: [Region] = []
        output.reserveCapacity(p.maxRegions)
        for i in regions.indices { append(regions[i], to: &output, explain: p.explain) }
        if p.reserveRefreshRegion {
            output.append(Region(id: "oncue-refresh", networkId: "oncue-refresh", lat: p.center.latitude, lon: p.center.longitude,
                                 radiusMeters: refreshAfter, priority: output.count + 1, name: "Refresh region", address: nil, kind: .refresh))
        }
        return RegionRefreshResponse(regions: output, refreshAfterMeters: refreshAfter, cacheTtlSeconds: configuration.cacheTTLSeconds,
                                     serverTime: ServerTime.string(now), coverageGuaranteed: distance >= floorMeters)
    }

    private func used(_ regions: [RegionDraft]) -> Int { regions.reduce(0) { $0 + $1.slotCount } }

    /// Collects ranked candidates and places them, fetching more when merges used them all up before the slots filled.
    /// Returns the candidates of the last collection (placed or not).
    @discardableResult
    private func fill(_ regions: inout [RegionDraft], tier: Int, slots: Int, p: RefreshParameters, q: (x: Double, y: Double, z: Double),
                      boosts: QueryBoosts, assembler: RegionAssembler, excluded: [UInt32] = [],
                      search: (inout RankedCollector) -> Void) -> [Candidate] {
        var want = slots - used(regions) + Self.candidateSlack
        let kept = regions.count
        while true {
            var collector = RankedCollector(index: index, boosts: boosts, limit: want, radiusLimit: p.radiusMeters,
                                            maxBoost: 1, maxRadius: 0, excluded: excluded)
            search(&collector)
            let consumed = assembler.place(collector.ranked, tier: tier, slots: slots, into: &regions, phone: p.center)
            if used(regions) >= slots || !collector.isFull || consumed < collector.ranked.count {
                return collector.ranked
            }
            // Merges used up every candidate before the slots filled: start this tier again with more. Only this
            // tier's regions changed (a merge joins regions of one network, and a network belongs to one tier).
            regions.removeSubrange(kept...)
            want *= 2
        }
    }

    /// D = min over unmonitored card-network locations of (distance − radius), less the fix accuracy.
    private func refreshDistance(cards: [UInt32], regions: [RegionDraft], candidates: [Candidate], q: (x: Double, y: Double, z: Double),
                                 accuracy: Double?) -> Double {
        // The phone's position is only known within its accuracy; the guarantee must hold for the true position.
        let uncertainty = min(max(accuracy ?? 0, 0), 1_000)
        let ceiling = configuration.refreshCeilingMeters
        guard !cards.isEmpty else { return ceiling }
        var covered: [UInt32] = []
        for i in regions.indices where regions[i].tier == 1 {
            covered.append(regions[i].lead.member)
            for m in regions[i].merged { covered.append(m.member) }
        }
        covered.sort()
        // Searching to ceiling + uncertainty makes the result exactly min(D − uncertainty, ceiling).
        var best = ceiling + uncertainty
        // Candidates collected for tier 1 but not monitored bound D from above before any search.
        for c in candidates where !covered.contains(c.member) {
            best = min(best, c.distance - Double(c.point.radius))
        }
        for k in cards {
            let tree = index.networkTrees[Int(k)]
            guard !tree.isEmpty else { continue }
            var finder = NearestBoundary(maxRadius: tree.maxRadius, covered: covered, ceiling: best)
            tree.search(q.x, q.y, q.z, &finder)
            best = min(best, finder.best)
        }
        return best - uncertainty
    }

    private func append(_ draft: RegionDraft, to output: inout [Region], explain: Bool) {
        let g = Int(draft.lead.member)
        let text = index.text(g)
        let id = text.id, name = text.name, address = text.address
        let networkId = index.networks[Int(draft.network)].id
        let merged = draft.merged.isEmpty ? nil : draft.merged.map { index.id(Int($0.member)) }.sorted()
        var explanation: Region.Explanation?
        if explain {
            let c = draft.lead
            explanation = Region.Explanation(tier: draft.tier, distanceMeters: (c.distance * 10).rounded() / 10,
                                             boundaryDistanceMeters: (max(0, c.distance - Double(c.point.radius)) * 10).rounded() / 10,
                                             visitBoost: c.visitBoost, timeOfDayBoost: c.timeBoost, score: (c.score * 10).rounded() / 10,
                                             radiusRule: draft.rule.name, localDensity: Int(index.density[g]))
        }
        output.append(Region(id: id, networkId: networkId, lat: draft.center.latitude, lon: draft.center.longitude,
                             radiusMeters: draft.radius.rounded(.up), priority: output.count + 1, name: name, address: address,
                             kind: .location, mergedLocationIds: merged, explain: explanation))
        for part in draft.parts {
            output.append(Region(id: "\(id)#\(part.suffix)", networkId: networkId, lat: part.center.latitude, lon: part.center.longitude,
                                 radiusMeters: part.radius.rounded(.up), priority: output.count + 1, name: name, address: address,
                                 kind: .location, explain: explanation))
        }
    }
}
