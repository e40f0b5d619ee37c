import Foundation

/// A sweep's outcome: per grid point, every seed's batch totals and their means with 95 % intervals.
package struct SweepResult: Sendable, Codable {
    package struct Point: Sendable, Codable {
        /// `strategy` plus every swept setting, e.g. "staged@16 cooldown=1800".
        package var label: String
        package var strategy: String
        package var settings: [String: String]
        /// Totals over all traces, one per seed (seed order as `seeds`).
        package var perSeed: [StrategyMetrics]
        /// recall / oracle-os recall of the same scenario variant and seed.
        package var recallVsOracleOS: [Double?]
        /// Mean and 95 % interval over seeds, by metric name (see `SweepResult.metricNames`).
        package var intervals: [String: Interval]
        /// The pooled figure over every seed and trace with its 95 % interval over people (`ClusterBootstrap`), for
        /// the headline ratios.
        package var peopleIntervals: [String: Interval] = [:]

        enum CodingKeys: String, CodingKey {
            case label, strategy, settings, intervals
            case perSeed = "per_seed"
            case recallVsOracleOS = "served_recall_vs_oracle_os"
            case peopleIntervals = "people_intervals"
        }
    }

    package var axes: [String: [String]]
    package var seeds: [UInt64]
    package var traces: Int
    /// The people the traces come from (the clusters of `ClusterBootstrap`).
    package var people: Int = 0
    package var hours: Double
    /// App strategies, then per scenario variant `oracle-os` and `oracle`.
    package var points: [Point]
    /// Settings `--recommended` and `--set` applied to every point (absent when none were).
    package var applied: [String: String]?
    /// Not written to JSON: the same inputs give the same bytes.
    package var wallSeconds: Double = 0

    enum CodingKeys: String, CodingKey { case axes, seeds, traces, people, hours, points, applied }

    /// An interval resting on fewer card moments than this (per seed) is flagged in the table.
    package static let fewMoments = 50

    package static let metricNames = [
        "served_recall", "card_by_1_min", "card_by_2_min", "card_by_5_min", "card_by_10_min", "precision", "recall_before_leaving",
        "precision_before_leaving", "on_time_recall", "served_recall_vs_oracle_os", "delay_p50_seconds", "delay_p90_seconds",
        "refresh_calls_per_hour", "region_churn_per_hour", "wakes_per_hour", "gps_seconds_per_hour", "duplicates", "missed_not_monitored",
        "missed_os_detection", "missed_region_detection", "missed_not_confirmed", "missed_app_policy", "late", "card_moments",
        "location_recall", "on_screen_recall", "on_screen_vs_oracle_os", "alert_precision", "alert_long_stay_recall", "buzzes_per_10h",
        "quiet_stray_per_10h", "quiet_stray_median_seconds", "screen_delay_p50_seconds", "alert_delay_p50_seconds",
        "screen_missed_not_monitored", "screen_missed_os_detection", "screen_missed_region_detection", "screen_missed_app_held",
        "screen_missed_removed_before_till", "screen_missed_replaced_before_till", "screen_missed_late",
    ]

    static func values(_ m: StrategyMetrics) -> [String: Double?] {
        let by = m.cardByShare
        return [
            "served_recall": m.servedRecall, "card_by_1_min": by?[0], "card_by_2_min": by?[1], "card_by_5_min": by?[2],
            "card_by_10_min": by?[3], "recall_before_leaving": m.recall, "precision_before_leaving": m.precisionBeforeLeaving,
            "on_time_recall": m.onTimeRecall, "precision": m.precision, "delay_p50_seconds": m.delayP50, "delay_p90_seconds": m.delayP90,
            "refresh_calls_per_hour": m.refreshCallsPerHour, "region_churn_per_hour": m.regionChurnPerHour, "wakes_per_hour": m.wakesPerHour,
            "gps_seconds_per_hour": m.gpsSecondsPerHour, "duplicates": Double(m.duplicates), "missed_not_monitored": Double(m.missedNotMonitored),
            "missed_os_detection": Double(m.missedOSDetection), "missed_region_detection": Double(m.missedRegionDetection),
            "missed_not_confirmed": Double(m.missedNotConfirmed), "missed_app_policy": Double(m.missedPolicy), "late": Double(m.late),
            "card_moments": Double(m.cardMoments), "location_recall": m.locationRecall,
            "on_screen_recall": m.tiers.onScreenRecall, "alert_precision": m.tiers.alertPrecision,
            "alert_long_stay_recall": m.tiers.alertLongStayRecall, "buzzes_per_10h": m.tiers.buzzesPer10h,
            "quiet_stray_per_10h": m.tiers.quietStrayPer10h, "quiet_stray_median_seconds": m.tiers.quietStrayMedianSeconds,
            "screen_delay_p50_seconds": m.tiers.screenDelayP50, "alert_delay_p50_seconds": m.tiers.alertDelayP50,
            "screen_missed_not_monitored": Double(m.tiers.missedNotMonitored), "screen_missed_os_detection": Double(m.tiers.missedOSDetection),
            "screen_missed_region_detection": Double(m.tiers.missedRegionDetection), "screen_missed_app_held": Double(m.tiers.missedAppHeld),
            "screen_missed_removed_before_till": Double(m.tiers.missedRemovedBeforeTill),
            "screen_missed_replaced_before_till": Double(m.tiers.missedReplacedBeforeTill), "screen_missed_late": Double(m.tiers.missedLate),
        ]
    }

    /// What a metric can be: shares in [0, 1], counts and rates at least 0, delays no earlier than 0 unless a seed's
    /// was (a card may come before arrival, within the moment's window).
    static func range(of metric: String, seeds: [Double]) -> ClosedRange<Double> {
        switch metric {
        case "served_recall", "card_by_1_min", "card_by_2_min", "card_by_5_min", "card_by_10_min", "recall_before_leaving",
            "precision_before_leaving", "on_time_recall", "precision", "location_recall", "on_screen_recall", "alert_precision",
            "alert_long_stay_recall":
            0...1
        case "delay_p50_seconds", "delay_p90_seconds", "screen_delay_p50_seconds", "alert_delay_p50_seconds":
            min(0, seeds.min() ?? 0)...Double.infinity
        default: 0...Double.infinity
        }
    }

    static func point(label: String, strategy: String, settings: [String: String], perSeed: [StrategyMetrics], oracleOS: [StrategyMetrics]) -> Point {
        let ratios: [Double?] = zip(perSeed, oracleOS).map { m, o in
            guard let r = m.servedRecall, let ro = o.servedRecall, ro > 0 else { return nil }
            return r / ro
        }
        // Card on screen at the till against what oracle-os serves (posting on the OS's word): study IV's target.
        let screenRatios: [Double?] = zip(perSeed, oracleOS).map { m, o in
            guard let r = m.tiers.onScreenRecall, let ro = o.servedRecall, ro > 0 else { return nil }
            return r / ro
        }
        var intervals: [String: Interval] = [:]
        for name in metricNames where name != "served_recall_vs_oracle_os" && name != "on_screen_vs_oracle_os" {
            let seeds = perSeed.compactMap { values($0)[name] ?? nil }
            if let i = Interval(seeds) { intervals[name] = i.clipped(to: range(of: name, seeds: seeds)) }
        }
        if let i = Interval(ratios.compactMap { $0 }) { intervals["served_recall_vs_oracle_os"] = i.clipped(to: 0...Double.infinity) }
        if let i = Interval(screenRatios.compactMap { $0 }) { intervals["on_screen_vs_oracle_os"] = i.clipped(to: 0...Double.infinity) }
        return Point(label: label, strategy: strategy, settings: settings, perSeed: perSeed, recallVsOracleOS: ratios, intervals: intervals)
    }

    package func json() throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try e.encode(self), as: UTF8.self) + "\n"
    }

    /// The printed table: one row per point. Served recall and precision: pooled over seeds and traces, [95 % interval
    /// over people]; the rest: means over seeds. `*` marks a row with fewer than `fewMoments` card moments per seed.
    package func table() -> (header: [String], rows: [[String]]) {
        let header = [
            "configuration", "moments", "on screen [people 95 %]", "alert prec. [people 95 %]", "alert ≥10 min", "buzz/10 h", "quiet/10 h",
            "quiet med. s", "served [people 95 %]", "by +1/+2/+5/+10 min", "precision [people 95 %]", "before leaving",
            "p50 s", "p90 s", "refresh/h", "GPS s/h", "wakes/h", "churn/h", "not mon.", "OS det.", "region det.", "app unconf.", "app policy",
            "app late",
        ]
        func people(_ name: String, _ p: Point) -> String {
            guard let i = p.peopleIntervals[name] else { return pct(name, p) }
            return String(format: "%.1f%% [%.1f–%.1f]", i.mean * 100, i.low * 100, i.high * 100)
        }
        func pct(_ name: String, _ p: Point) -> String {
            guard let i = p.intervals[name] else { return "-" }
            return String(format: "%.1f%%", i.mean * 100)
        }
        func num(_ name: String, _ p: Point, _ format: String) -> String {
            guard let i = p.intervals[name] else { return "-" }
            return String(format: format, i.mean)
        }
        let rows = points.map { p in
            let moments = p.intervals["card_moments"]?.mean ?? 0
            let by = ["card_by_1_min", "card_by_2_min", "card_by_5_min", "card_by_10_min"].map { name in
                p.intervals[name].map { String(format: "%.0f", $0.mean * 100) } ?? "-"
            }
            return [
                p.label, String(format: "%.0f", moments) + (moments < Double(Self.fewMoments) ? "*" : ""), people("on_screen_recall", p),
                people("alert_precision", p), pct("alert_long_stay_recall", p), num("buzzes_per_10h", p, "%.1f"),
                num("quiet_stray_per_10h", p, "%.1f"), num("quiet_stray_median_seconds", p, "%.0f"), people("served_recall", p),
                by.joined(separator: "/") + "%", people("precision", p), pct("recall_before_leaving", p), num("delay_p50_seconds", p, "%.0f"),
                num("delay_p90_seconds", p, "%.0f"), num("refresh_calls_per_hour", p, "%.2f"), num("gps_seconds_per_hour", p, "%.0f"),
                num("wakes_per_hour", p, "%.1f"), num("region_churn_per_hour", p, "%.1f"), num("missed_not_monitored", p, "%.1f"),
                num("missed_os_detection", p, "%.1f"), num("missed_region_detection", p, "%.1f"), num("missed_not_confirmed", p, "%.1f"),
                num("missed_app_policy", p, "%.1f"), num("late", p, "%.1f"),
            ]
        }
        return (header, rows)
    }
}
