import OnCueContract

/// The boosts of one request, resolved to network numbers so the search loop does no string work.
///
/// A class: the collectors and closures of a selection each hold it, and as a struct every one of those copies
/// counted three references (a dictionary and two arrays) where a class counts one (2-15 % more selections/s).
///
/// Most requests carry no visits and no local time: they all share `neutral` rather than each allocating its own.
///
/// With a local time, a store closed for the whole of the next `EngineConfiguration.closedLookaheadMinutes` ranks after
/// every open one of its tier: `closedPenalty` is added to its score, more than any boundary distance ÷ boost can be,
/// so the collectors' bounds (worst score × largest boost) stay correct without knowing about hours.
final class QueryBoosts: Sendable {
    /// Visit boost per network number, for the (few) networks the phone reported visits for.
    private let visitBoost: [UInt32: Double]
    /// Time-of-day boost per category number of the index; empty when the request has no local time.
    private let categoryBoost: [Double]
    private let networkCategory: [Int32]
    let maxVisitBoost: Double
    let maxTimeBoost: Double
    /// No visits and no local time: every boost is 1 (most requests), which the search loop tests first.
    let isNeutral: Bool
    /// The request's minute of the week, when opening hours rank it (a local time, hours in the index, a lookahead).
    let hoursMinute: Int?
    let lookaheadMinutes: Int
    private let openingHours: OpeningHoursTable

    /// Added to the score of a store closed for the lookahead: above any boundary distance on Earth (boosts are ≥ 1).
    static let closedPenalty = 1e9

    /// Every boost 1.
    static let neutral = QueryBoosts()

    /// The boosts of a request: `neutral` when it has neither visits nor a local time.
    static func of(_ parameters: RefreshParameters, index: LocationIndex, configuration: EngineConfiguration) -> QueryBoosts {
        if parameters.networkVisits.isEmpty && parameters.localTime == nil { return neutral }
        return QueryBoosts(parameters: parameters, index: index, configuration: configuration)
    }

    private init() {
        visitBoost = [:]
        categoryBoost = []
        networkCategory = []
        maxVisitBoost = 1
        maxTimeBoost = 1
        isNeutral = true
        hoursMinute = nil
        lookaheadMinutes = 0
        openingHours = .empty
    }

    init(parameters: RefreshParameters, index: LocationIndex, configuration: EngineConfiguration) {
        let table = configuration.boosts
        var visits: [UInt32: Double] = [:]
        for (id, count) in parameters.networkVisits {
            if let k = index.networkNumber(named: id) { visits[k] = table.visitBoost(visits: count) }
        }
        visitBoost = visits
        maxVisitBoost = visits.values.max().map { max(1, $0) } ?? 1
        if let hour = parameters.localHour {
            categoryBoost = index.categories.map { table.timeBoost(category: $0, hour: hour) }
        } else {
            categoryBoost = []
        }
        maxTimeBoost = categoryBoost.max().map { max(1, $0) } ?? 1
        networkCategory = index.networkCategory
        lookaheadMinutes = configuration.closedLookaheadMinutes
        openingHours = index.openingHours
        hoursMinute = lookaheadMinutes > 0 && !openingHours.isEmpty ? parameters.localTime?.minuteOfWeek : nil
        isNeutral = visitBoost.isEmpty && categoryBoost.isEmpty && hoursMinute == nil
    }

    /// Whether a location is closed for the whole lookahead from the request's local time (false without one).
    @inline(__always)
    func isClosedSoon(_ location: UInt32) -> Bool {
        guard let minute = hoursMinute else { return false }
        return openingHours.isClosed(location, from: minute, forMinutes: lookaheadMinutes)
    }

    /// A location's score: boundary distance ÷ boosts, plus `closedPenalty` when it is closed for the lookahead.
    @inline(__always)
    func score(boundaryDistance: Double, network: UInt32, location: UInt32) -> Double {
        let boosted = boundaryDistance / combined(network)
        return isClosedSoon(location) ? boosted + Self.closedPenalty : boosted
    }

    @inline(__always)
    func visit(_ network: UInt32) -> Double { visitBoost.isEmpty ? 1 : (visitBoost[network] ?? 1) }

    @inline(__always)
    func time(_ network: UInt32) -> Double {
        guard !categoryBoost.isEmpty else { return 1 }
        let c = networkCategory[Int(network)]
        return c < 0 ? 1 : categoryBoost[Int(c)]
    }

    /// Both boosts of a location of `network`: what its boundary distance is divided by.
    @inline(__always)
    func combined(_ network: UInt32) -> Double { isNeutral ? 1 : visit(network) * time(network) }

    /// The largest combined boost a location of `network` can get (nil = any network).
    func maxBoost(network: UInt32?) -> Double {
        if let network { return combined(network) }
        return maxVisitBoost * maxTimeBoost
    }
}
