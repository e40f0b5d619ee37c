import Foundation

/// A sweep's outcome: per grid point, every seed's batch totals and their means with 95 % intervals.
public struct SweepResult: Sendable, Codable {
    public struct Point: Sendable, Codable {
        /// `strategy` plus every swept setting, e.g. "staged@16 cooldown=1800".
        public var label: String
        public var strategy: String
        public var settings: [String: String]
        /// Totals over all traces, one per seed (seed order as `seeds`).
        public var perSeed: [StrategyMetrics]
        /// recall / oracle-os recall of the same scenario variant and seed.
        public var recallVsOracleOS: [Double?]
        /// Mean and 95 % interval over seeds, by metric name (see `SweepResult.metricNames`).
        public var intervals: [String: Interval]

        enum CodingKeys: String, CodingKey {
            case label, strategy, settings, intervals
            case perSeed = "per_seed"
            case recallVsOracleOS = "recall_vs_oracle_os"
        }
    }

    public var axes: [String: [String]]
    public var seeds: [UInt64]
    public var traces: Int
    public var hours: Double
    /// App strategies, then per scenario variant `oracle-os` and `oracle`.
    public var points: [Point]
    /// Not written to JSON: the same inputs give the same bytes.
    public var wallSeconds: Double = 0

    enum CodingKeys: String, CodingKey { case axes, seeds, traces, hours, points }

    public static let metricNames = [
        "recall", "on_time_recall", "precision", "recall_vs_oracle_os", "delay_p50_s", "delay_p90_s", "refresh_calls_per_hour",
        "region_churn_per_hour", "wakes_per_hour", "gps_seconds_per_hour", "duplicates", "missed_not_monitored",
        "missed_os_detection", "missed_region_detection", "missed_notification_policy", "card_moments", "location_recall",
    ]

    static func values(_ m: StrategyMetrics) -> [String: Double?] {
        [
            "recall": m.recall, "on_time_recall": m.onTimeRecall, "precision": m.precision, "delay_p50_s": m.delayP50, "delay_p90_s": m.delayP90,
            "refresh_calls_per_hour": m.refreshCallsPerHour, "region_churn_per_hour": m.regionChurnPerHour, "wakes_per_hour": m.wakesPerHour,
            "gps_seconds_per_hour": m.gpsSecondsPerHour, "duplicates": Double(m.duplicates), "missed_not_monitored": Double(m.missedNotMonitored),
            "missed_os_detection": Double(m.missedOSDetection), "missed_region_detection": Double(m.missedRegionDetection),
            "missed_notification_policy": Double(m.missedPolicy), "card_moments": Double(m.cardMoments), "location_recall": m.locationRecall,
        ]
    }

    /// What a metric can be: shares in [0, 1], counts and rates at least 0, delays no earlier than 0 unless a seed's
    /// was (a card may come before arrival, within the moment's window).
    static func range(of metric: String, seeds: [Double]) -> ClosedRange<Double> {
        switch metric {
        case "recall", "on_time_recall", "precision", "location_recall": 0...1
        case "delay_p50_s", "delay_p90_s": min(0, seeds.min() ?? 0)...Double.infinity
        default: 0...Double.infinity
        }
    }

    static func point(label: String, strategy: String, settings: [String: String], perSeed: [StrategyMetrics], oracleOS: [StrategyMetrics]) -> Point {
        let ratios: [Double?] = zip(perSeed, oracleOS).map { m, o in
            guard let r = m.recall, let ro = o.recall, ro > 0 else { return nil }
            return r / ro
        }
        var intervals: [String: Interval] = [:]
        for name in metricNames where name != "recall_vs_oracle_os" {
            let seeds = perSeed.compactMap { values($0)[name] ?? nil }
            if let i = Interval(seeds) { intervals[name] = i.clipped(to: range(of: name, seeds: seeds)) }
        }
        if let i = Interval(ratios.compactMap { $0 }) { intervals["recall_vs_oracle_os"] = i.clipped(to: 0...Double.infinity) }
        return Point(label: label, strategy: strategy, settings: settings, perSeed: perSeed, recallVsOracleOS: ratios, intervals: intervals)
    }

    public func json() throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try e.encode(self), as: UTF8.self) + "\n"
    }

    /// The printed table: one row per point, mean [95 % interval].
    public func table() -> (header: [String], rows: [[String]]) {
        let header = [
            "configuration", "moments", "recall", "vs oracle-os", "on time", "precision", "p50 s", "p90 s", "refresh/h",
            "churn/h", "wakes/h", "GPS s/h", "not mon.", "OS det.", "region det.", "policy",
        ]
        func pct(_ name: String, _ p: Point) -> String {
            guard let i = p.intervals[name] else { return "-" }
            return i.n > 1 ? String(format: "%.1f%% [%.1f–%.1f]", i.mean * 100, i.low * 100, i.high * 100) : String(format: "%.1f%%", i.mean * 100)
        }
        func num(_ name: String, _ p: Point, _ format: String) -> String {
            guard let i = p.intervals[name] else { return "-" }
            return i.n > 1 ? String(format: "\(format) [\(format)–\(format)]", i.mean, i.low, i.high) : String(format: format, i.mean)
        }
        let rows = points.map { p in
            [
                p.label, num("card_moments", p, "%.0f"), pct("recall", p), pct("recall_vs_oracle_os", p), pct("on_time_recall", p),
                pct("precision", p), num("delay_p50_s", p, "%.0f"), num("delay_p90_s", p, "%.0f"), num("refresh_calls_per_hour", p, "%.2f"),
                num("region_churn_per_hour", p, "%.1f"), num("wakes_per_hour", p, "%.1f"), num("gps_seconds_per_hour", p, "%.0f"),
                num("missed_not_monitored", p, "%.1f"), num("missed_os_detection", p, "%.1f"), num("missed_region_detection", p, "%.1f"),
                num("missed_notification_policy", p, "%.1f"),
            ]
        }
        return (header, rows)
    }
}
