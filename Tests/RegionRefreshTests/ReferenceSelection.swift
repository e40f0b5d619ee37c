import Foundation
import Geo
import LocationStore
import OnCueContract

@testable import RegionRefresh

/// The selection spelled out the slow, obvious way: score every location, sort, place greedily.
/// It shares no search code with the engine (no k-d tree, no candidate limits, no pruning bounds).
struct ReferenceSelection {
    // Locations are held column by column, networks and opening-hours values by number: scoring 100,000 locations per
    // query then copies no strings, which in a debug build was most of this reference's time (and of the suite's).
    let ids: [String]
    let coordinates: [Coordinate]
    let radii: [Double]
    let isSplit: [Bool]
    /// Index into `networkIds`.
    let network: [Int]
    /// Index into `hoursValues`, or -1 for a location without opening hours.
    let hours: [Int]
    let networkIds: [String]
    let networkCategories: [String?]
    let hoursValues: [String]
    let boosts: BoostTable
    let closedLookaheadMinutes: Int
    /// Each distinct opening_hours value's state at every minute of the week, read minute by minute from
    /// `OpeningHours.state` (nil: a value it does not understand, treated as open).
    let weeks: [[OpeningHours.State]?]

    init(
        index: LocationIndex, locations: [Location], networks: [Network], boosts: BoostTable = .standard,
        closedLookaheadMinutes: Int = EngineConfiguration().closedLookaheadMinutes
    ) {
        // Match each location to its slot in the index by id to read the radius the policy gave it.
        var slot: [String: Int] = [:]
        for i in 0..<index.count { slot[index.id(i)] = i }
        let categories = Dictionary(uniqueKeysWithValues: networks.map { ($0.id, $0.category?.lowercased()) })
        var networkNumber: [String: Int] = [:]
        var networkIds: [String] = []
        var hoursNumber: [String: Int] = [:]
        var hoursValues: [String] = []
        var network: [Int] = []
        var hours: [Int] = []
        for l in locations {
            network.append(Self.number(l.networkId, in: &networkNumber, values: &networkIds))
            hours.append(l.openingHours.map { Self.number($0, in: &hoursNumber, values: &hoursValues) } ?? -1)
        }
        ids = locations.map(\.id)
        coordinates = locations.map(\.coordinate)
        radii = locations.map { Double(index.radius[slot[$0.id]!]) }
        isSplit = locations.map { index.rule[slot[$0.id]!] == .splitVenue }
        self.network = network
        self.hours = hours
        self.networkIds = networkIds
        networkCategories = networkIds.map { categories[$0] ?? nil }
        self.hoursValues = hoursValues
        self.boosts = boosts
        self.closedLookaheadMinutes = closedLookaheadMinutes
        weeks = hoursValues.map { text in
            OpeningHours(text).map { hours in (0..<10_080).map { hours.state(weekday: $0 / 1440, minute: $0 % 1440) } }
        }
    }

    private static func number(_ value: String, in numbers: inout [String: Int], values: inout [String]) -> Int {
        if let n = numbers[value] { return n }
        numbers[value] = values.count
        values.append(value)
        return values.count - 1
    }

    /// For each opening_hours value: whether its store is closed at every minute of the lookahead from the request's
    /// local time.
    func closedValues(_ p: RefreshParameters) -> [Bool] {
        guard let clock = p.localTime, closedLookaheadMinutes > 0 else { return Array(repeating: false, count: weeks.count) }
        let start = clock.weekday * 1440 + clock.minuteOfDay
        return weeks.map { week in
            guard let week else { return false }
            return (0..<closedLookaheadMinutes).allSatisfy { week[(start + $0) % 10_080] == .closed }
        }
    }

    struct Ranked {
        var location: Int
        var tier: Int
        var distance: Double
        var score: Double
        var closed: Bool
    }

    /// Ids of the regions in order (split parts as `id#k`), the merged ids per region, and D.
    func select(_ p: RefreshParameters) -> (ids: [String], merged: [[String]], refreshDistance: Double) {
        let cards = networkIds.map { Set(p.cardNetworks).contains($0) }
        let closedValues = closedValues(p)
        let boost = networkIds.indices.map { n in
            boosts.visitBoost(visits: p.networkVisits[networkIds[n]] ?? 0)
                * boosts.timeBoost(category: networkCategories[n], hour: p.localHour)
        }
        var ranked: [Ranked] = []
        for i in ids.indices {
            let n = network[i]
            if !cards[n] && !p.includeOtherNetworks { continue }
            // A great-circle distance is at least the latitude difference's arc (111.19 km a degree on the mean
            // sphere): most locations are out of reach by that alone, without a haversine.
            if abs(coordinates[i].latitude - p.center.latitude) * 111_000 > p.radiusMeters { continue }
            let d = Sphere.distance(p.center, coordinates[i])
            guard d <= p.radiusMeters else { continue }
            let closed = hours[i] >= 0 && closedValues[hours[i]]
            ranked.append(Ranked(location: i, tier: cards[n] ? 1 : 2, distance: d, score: max(0, d - radii[i]) / boost[n], closed: closed))
        }
        ranked.sort {
            if $0.tier != $1.tier { return $0.tier < $1.tier }
            if $0.closed != $1.closed { return !$0.closed }
            if $0.score != $1.score { return $0.score < $1.score }
            if $0.distance != $1.distance { return $0.distance < $1.distance }
            return ids[$0.location] < ids[$1.location]
        }
        let slots = p.reserveRefreshRegion ? p.maxRegions - 1 : p.maxRegions
        struct Placed {
            var network: Int
            var members: [Int]
            var parts: Int
            var tier: Int
            var split: Bool
        }
        var placed: [Placed] = []
        let mergeable = EngineConfiguration().mergeableCirclesPerRegion
        for r in ranked {
            let usedSlots = placed.reduce(0) { $0 + $1.parts }
            if usedSlots >= slots { break }
            let e = r.location
            if !isSplit[e],
                let j = placed.firstIndex(where: { pl in
                    // A region's first members (its lead first) are the circles later ones merge with.
                    !pl.split && pl.network == network[e]
                        && pl.members.prefix(mergeable).contains { m in
                            Sphere.distance(coordinates[m], coordinates[e]) <= max(radii[e], radii[m])
                        }
                })
            {
                placed[j].members.append(e)
                continue
            }
            let parts = isSplit[e] ? min(7, slots - usedSlots) : 1
            placed.append(Placed(network: network[e], members: [e], parts: parts, tier: r.tier, split: isSplit[e]))
        }
        var regionIds: [String] = []
        var merged: [[String]] = []
        for pl in placed {
            regionIds.append(ids[pl.members[0]])
            merged.append(pl.members.dropFirst().map { ids[$0] }.sorted())
            if pl.parts > 1 { for _ in 1..<pl.parts { regionIds.append("\(ids[pl.members[0]])#") } }
        }
        var covered = Set<Int>()
        for pl in placed where pl.tier == 1 { covered.formUnion(pl.members) }
        var best = Double.infinity
        for i in ids.indices where cards[network[i]] && !covered.contains(i) {
            best = min(best, Sphere.distance(p.center, coordinates[i]) - radii[i])
        }
        return (regionIds, merged, best - max(p.accuracyMeters ?? 0, 0))
    }
}
