import Foundation
import Geo
import LocationStore
import OnCueContract
import RegionRefresh

extension ChangeScript {
    /// A build from scratch of the script's store as it is now.
    public func build() -> LocationIndex {
        LocationIndex.build(locations: locations, networks: summaries.map(\.network), aliases: aliasPairs)
    }

    /// The first answer two indexes give differently, nil when every one agrees: every kind of request (card networks
    /// by id and by name, an unknown one, visits, local time and opening hours, explain, accuracy, a radius floor, the
    /// refresh region) at many points, the same bytes; and the listing of a box.
    public mutating func firstDifference(_ incremental: LocationIndex, _ fresh: LocationIndex, queries: Int) -> String? {
        var world = self
        defer { self = world }
        if incremental.count != fresh.count { return "\(incremental.count) locations served, \(fresh.count) in a build" }
        if Set(incremental.networkSummaries) != Set(fresh.networkSummaries) { return "the networks and their counts differ" }
        let a = RegionRefreshEngine(index: incremental)
        let b = RegionRefreshEngine(index: fresh)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let networkIds = world.networks.keys.sorted()
        for q in 0..<queries {
            let centre = Self.centres[q % Self.centres.count]
            let phone = world.point(near: centre, within: q % 7 == 0 ? 20_000 : 3_000)
            var cards = Array(networkIds.shuffled(using: &world.random).prefix(Int.random(in: 0...2, using: &world.random)))
            if let first = cards.first, let name = world.networks[first]?.name, Bool.random(using: &world.random) { cards[0] = name }
            if q % 5 == 0 { cards.append(world.removedNetworks.randomElement(using: &world.random) ?? "gone-network") }
            let variants = [
                RefreshParameters(center: phone, cardNetworks: cards),
                RefreshParameters(
                    center: phone, accuracyMeters: 30, radiusMeters: 8_000, cardNetworks: cards, maxRegions: 12,
                    networkVisits: cards.first.map { [$0: 5] } ?? [:], localTime: LocalWallClock(weekday: q % 7, minuteOfDay: (q * 97) % 1440),
                    explain: true),
                RefreshParameters(
                    center: phone, accuracyMeters: 120, radiusMeters: 3_000, cardNetworks: cards, includeOtherNetworks: false,
                    reserveRefreshRegion: true, minRadiusMeters: 100),
            ]
            for p in variants {
                let x = (try? a.select(p, now: now).wireJSON()).map { String(decoding: $0, as: UTF8.self) }
                let y = (try? b.select(p, now: now).wireJSON()).map { String(decoding: $0, as: UTF8.self) }
                if x != y { return "query \(q) at \(phone), cards \(cards): \(x ?? "error") vs \(y ?? "error")" }
            }
        }
        let box = GeoBox(minLatitude: 40.70, maxLatitude: 40.78, minLongitude: -74.02, maxLongitude: -73.95)
        let la = incremental.locations(in: box, limit: 50)
        let lb = fresh.locations(in: box, limit: 50)
        if la.locations != lb.locations || la.truncated != lb.truncated { return "the listing of a box differs" }
        return nil
    }
}
