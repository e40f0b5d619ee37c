/// A card moment: the person at one or more locations of a network the wallet holds, with overlapping or
/// back-to-back visits (gap ≤ the cool-down) to that network merged into one. One "Espresso House card available"
/// is right for it, however many Espresso Houses stand in the building.
package struct CardMoment: Sendable, Hashable, Codable {
    package var networkId: String
    package var arrival: Double
    package var departure: Double
    /// The location visits merged into the moment, in arrival order.
    package var visits: [Visit]

    /// The locations visited, each once, in arrival order.
    package var locationIds: [String] {
        var seen = Set<String>()
        return visits.map(\.locationId).filter { seen.insert($0).inserted }
    }

    enum CodingKeys: String, CodingKey {
        case networkId = "network_id"
        case arrival, departure, visits
    }
}

package enum CardMoments {
    /// Groups location visits into card moments, per network: a visit that starts no later than `gapSeconds` after
    /// the moment so far ends joins it. Sorted by arrival, then network.
    package static func merge(_ visits: [Visit], gapSeconds: Double) -> [CardMoment] {
        var byNetwork: [String: [Visit]] = [:]
        for v in visits { byNetwork[v.networkId, default: []].append(v) }
        var moments: [CardMoment] = []
        for (network, list) in byNetwork {
            var current: CardMoment?
            for v in list.sorted(by: { ($0.arrival, $0.locationId) < ($1.arrival, $1.locationId) }) {
                if var m = current, v.arrival <= m.departure + gapSeconds {
                    m.departure = max(m.departure, v.departure)
                    m.visits.append(v)
                    current = m
                } else {
                    if let m = current { moments.append(m) }
                    current = CardMoment(networkId: network, arrival: v.arrival, departure: v.departure, visits: [v])
                }
            }
            if let m = current { moments.append(m) }
        }
        return moments.sorted { ($0.arrival, $0.networkId) < ($1.arrival, $1.networkId) }
    }
}
