import Foundation

/// What one strategy achieved on one trace (or, summed, on a batch).
public struct StrategyMetrics: Sendable, Hashable, Codable {
    public var strategy: String
    public var hours: Double = 0
    public var visits: Int = 0
    public var passThroughs: Int = 0
    public var caught: Int = 0
    /// caught / visits; nil without visits.
    public var recall: Double?
    public var notifications: Int = 0
    public var matchedNotifications: Int = 0
    /// matched / notifications; nil without notifications.
    public var precision: Double?
    /// Unmatched notifications that fired on a pass-through of the same store.
    public var passThroughNotifications: Int = 0
    /// Seconds from arrival to the first matching notification (negative: notified on approach), nearest rank.
    public var delayP50: Double?
    public var delayP90: Double?
    /// Missed visits whose store was never monitored during the visit, and those monitored but not detected.
    public var missedNotMonitored: Int = 0
    public var missedByDetection: Int = 0
    public var refreshCalls: Int = 0
    public var refreshFailures: Int = 0
    public var refreshCallsPerHour: Double = 0
    public var regionStarts: Int = 0
    public var regionStops: Int = 0
    /// (starts + stops) per hour of trace.
    public var regionChurnPerHour: Double = 0
    /// startMonitoring calls refused by the OS limit.
    public var monitorFailures: Int = 0
    /// Raw delays, kept for batch aggregation (not written to JSON).
    var delays: [Double] = []

    enum CodingKeys: String, CodingKey {
        case strategy, hours, visits, caught, recall, notifications, precision
        case passThroughs = "pass_throughs"
        case matchedNotifications = "matched_notifications"
        case passThroughNotifications = "pass_through_notifications"
        case delayP50 = "delay_p50_s"
        case delayP90 = "delay_p90_s"
        case missedNotMonitored = "missed_not_monitored"
        case missedByDetection = "missed_by_detection"
        case refreshCalls = "refresh_calls"
        case refreshFailures = "refresh_failures"
        case refreshCallsPerHour = "refresh_calls_per_hour"
        case regionStarts = "region_starts"
        case regionStops = "region_stops"
        case regionChurnPerHour = "region_churn_per_hour"
        case monitorFailures = "monitor_failures"
    }

    public init(strategy: String) { self.strategy = strategy }

    /// Nearest-rank percentile (`p` in 0...1) of unsorted values; nil when empty.
    public static func percentile(_ values: [Double], _ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }

    mutating func finishRatios() {
        recall = visits > 0 ? Double(caught) / Double(visits) : nil
        precision = notifications > 0 ? Double(matchedNotifications) / Double(notifications) : nil
        delayP50 = Self.percentile(delays, 0.5)
        delayP90 = Self.percentile(delays, 0.9)
        refreshCallsPerHour = hours > 0 ? Double(refreshCalls) / hours : 0
        regionChurnPerHour = hours > 0 ? Double(regionStarts + regionStops) / hours : 0
    }

    /// Sums counts over traces and recomputes the ratios (batch totals).
    public static func total(_ parts: [StrategyMetrics], strategy: String) -> StrategyMetrics {
        var t = StrategyMetrics(strategy: strategy)
        for p in parts {
            t.hours += p.hours; t.visits += p.visits; t.passThroughs += p.passThroughs; t.caught += p.caught
            t.notifications += p.notifications; t.matchedNotifications += p.matchedNotifications
            t.passThroughNotifications += p.passThroughNotifications; t.missedNotMonitored += p.missedNotMonitored
            t.missedByDetection += p.missedByDetection; t.refreshCalls += p.refreshCalls; t.refreshFailures += p.refreshFailures
            t.regionStarts += p.regionStarts; t.regionStops += p.regionStops; t.monitorFailures += p.monitorFailures
            t.delays += p.delays
        }
        t.finishRatios()
        return t
    }
}

/// A visit with its outcome under one strategy.
public struct VisitOutcome: Sendable, Hashable, Codable {
    public var visit: Visit
    /// Seconds from arrival to the first matching notification; nil when missed.
    public var delay: Double?
    /// When missed: was the store monitored at any time during the visit window?
    public var wasMonitored: Bool
}

/// Matches notifications to ground-truth visits and classifies misses.
public enum MetricsCalculator {
    static func compute(strategy: String, hours: Double, visits: [Visit], passThroughs: [PassThrough], recorder: Recorder,
                        model: GroundTruthModel) -> (StrategyMetrics, [VisitOutcome]) {
        var m = StrategyMetrics(strategy: strategy)
        m.hours = hours
        m.visits = visits.count
        m.passThroughs = passThroughs.count
        m.refreshCalls = recorder.refreshCalls
        m.refreshFailures = recorder.refreshFailures
        m.regionStarts = recorder.regionStarts
        m.regionStops = recorder.regionStops
        m.monitorFailures = recorder.monitorFailures
        let notes = recorder.notifications
        m.notifications = notes.count
        var byLocation: [String: [Int]] = [:]
        for (i, n) in notes.enumerated() { byLocation[n.locationId, default: []].append(i) }
        var matched = Set<Int>()
        var outcomes: [VisitOutcome] = []
        for v in visits {
            let lo = v.arrival - model.matchBeforeSeconds, hi = v.departure + model.matchAfterSeconds
            let hits = (byLocation[v.locationId] ?? []).filter { notes[$0].time >= lo && notes[$0].time <= hi }
            hits.forEach { matched.insert($0) }
            if let first = hits.map({ notes[$0].time }).min() {
                m.caught += 1
                m.delays.append(first - v.arrival)
                outcomes.append(VisitOutcome(visit: v, delay: first - v.arrival, wasMonitored: true))
            } else {
                let monitored = recorder.intervals.contains {
                    !$0.isRefreshRegion && $0.locationIds.contains(v.locationId) && $0.start <= v.departure && $0.end >= lo
                }
                if monitored { m.missedByDetection += 1 } else { m.missedNotMonitored += 1 }
                outcomes.append(VisitOutcome(visit: v, delay: nil, wasMonitored: monitored))
            }
        }
        m.matchedNotifications = matched.count
        for (i, n) in notes.enumerated() where !matched.contains(i) {
            if passThroughs.contains(where: { $0.locationId == n.locationId && n.time >= $0.time - model.matchBeforeSeconds && n.time <= $0.time + model.matchAfterSeconds }) {
                m.passThroughNotifications += 1
            }
        }
        m.finishRatios()
        return (m, outcomes)
    }
}
