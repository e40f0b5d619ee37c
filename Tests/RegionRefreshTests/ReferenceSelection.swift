import Foundation
import Geo
import LocationStore
import OnCueContract

@testable import RegionRefresh

/// The selection spelled out the slow, obvious way: score every location, sort, place greedily.
/// It shares no search code with the engine (no k-d tree, no candidate limits, no pruning bounds).
struct ReferenceSelection {
    struct Entry {
        var index: Int
        var location: Location
        var radius: Double
        var isSplit: Bool
    }

    let entries: [Entry]
    let networks: [String: Network]
    let boosts: BoostTable
    let closedLookaheadMinutes: Int
    /// Each distinct opening_hours value's state at every minute of the week, read minute by minute from
    /// `OpeningHours.state` (nil: a value it does not understand, treated as open).
    let weeks: [String: [OpeningHours.State]?]

    init(
        index: LocationIndex, locations: [Location], networks: [Network], boosts: BoostTable = .standard,
        closedLookaheadMinutes: Int = EngineConfiguration().closedLookaheadMinutes
    ) {
        var entries: [Entry] = []
        // Match each location to its slot in the index by id to read the radius the policy gave it.
        var slot: [String: Int] = [:]
        for i in 0..<index.count { slot[index.id(i)] = i }
        for l in locations {
            let i = slot[l.id]!
            entries.append(Entry(index: i, location: l, radius: Double(index.radius[i]), isSplit: index.rule[i] == .splitVenue))
        }
        self.entries = entries
        self.networks = Dictionary(uniqueKeysWithValues: networks.map { ($0.id, $0) })
        self.boosts = boosts
        self.closedLookaheadMinutes = closedLookaheadMinutes
        var weeks: [String: [OpeningHours.State]?] = [:]
        for text in Set(locations.compactMap(\.openingHours)) {
            weeks[text] = OpeningHours(text).map { hours in (0..<10_080).map { hours.state(weekday: $0 / 1440, minute: $0 % 1440) } }
        }
        self.weeks = weeks
    }

    /// The values whose store is closed at every minute of the lookahead from the request's local time.
    func closedValues(_ p: RefreshParameters) -> Set<String> {
        guard let clock = p.localTime, closedLookaheadMinutes > 0 else { return [] }
        var closed = Set<String>()
        for (text, week) in weeks {
            guard let week else { continue }
            let start = clock.weekday * 1440 + clock.minuteOfDay
            if (0..<closedLookaheadMinutes).allSatisfy({ week[(start + $0) % 10_080] == .closed }) { closed.insert(text) }
        }
        return closed
    }

    struct Ranked {
        var entry: Entry
        var tier: Int
        var distance: Double
        var score: Double
        var closed: Bool
    }

    /// Ids of the regions in order (split parts as `id#k`), the merged ids per region, and D.
    func select(_ p: RefreshParameters) -> (ids: [String], merged: [[String]], refreshDistance: Double) {
        let cards = Set(p.cardNetworks)
        let closedValues = closedValues(p)
        var ranked: [Ranked] = []
        for e in entries {
            let isCard = cards.contains(e.location.networkId)
            if !isCard && !p.includeOtherNetworks { continue }
            let d = Sphere.distance(p.center, e.location.coordinate)
            guard d <= p.radiusMeters else { continue }
            let category = networks[e.location.networkId]?.category?.lowercased()
            let boost =
                boosts.visitBoost(visits: p.networkVisits[e.location.networkId] ?? 0) * boosts.timeBoost(category: category, hour: p.localHour)
            let closed = e.location.openingHours.map(closedValues.contains) ?? false
            ranked.append(Ranked(entry: e, tier: isCard ? 1 : 2, distance: d, score: max(0, d - e.radius) / boost, closed: closed))
        }
        ranked.sort {
            if $0.tier != $1.tier { return $0.tier < $1.tier }
            if $0.closed != $1.closed { return !$0.closed }
            if $0.score != $1.score { return $0.score < $1.score }
            if $0.distance != $1.distance { return $0.distance < $1.distance }
            return $0.entry.location.id < $1.entry.location.id
        }
        let slots = p.reserveRefreshRegion ? p.maxRegions - 1 : p.maxRegions
        struct Placed {
            var network: String
            var members: [Entry]
            var parts: Int
            var tier: Int
            var split: Bool
        }
        var placed: [Placed] = []
        for r in ranked {
            let usedSlots = placed.reduce(0) { $0 + $1.parts }
            if usedSlots >= slots { break }
            let e = r.entry
            if !e.isSplit,
                let j = placed.firstIndex(where: { pl in
                    // A region's first members (its lead first) are the circles later ones merge with.
                    !pl.split && pl.network == e.location.networkId
                        && pl.members.prefix(EngineConfiguration().mergeableCirclesPerRegion).contains { m in
                            Sphere.distance(m.location.coordinate, e.location.coordinate) <= max(e.radius, m.radius)
                        }
                })
            {
                placed[j].members.append(e)
                continue
            }
            let parts = e.isSplit ? min(7, slots - usedSlots) : 1
            placed.append(Placed(network: e.location.networkId, members: [e], parts: parts, tier: r.tier, split: e.isSplit))
        }
        var ids: [String] = []
        var merged: [[String]] = []
        for pl in placed {
            ids.append(pl.members[0].location.id)
            merged.append(pl.members.dropFirst().map(\.location.id).sorted())
            if pl.parts > 1 { for _ in 1..<pl.parts { ids.append("\(pl.members[0].location.id)#") } }
        }
        var covered = Set<String>()
        for pl in placed where pl.tier == 1 { for m in pl.members { covered.insert(m.location.id) } }
        var best = Double.infinity
        for e in entries where cards.contains(e.location.networkId) && !covered.contains(e.location.id) {
            best = min(best, Sphere.distance(p.center, e.location.coordinate) - e.radius)
        }
        return (ids, merged, best - max(p.accuracyMeters ?? 0, 0))
    }
}
