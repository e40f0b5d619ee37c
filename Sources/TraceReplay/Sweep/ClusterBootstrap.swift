import Geo

/// 95 % intervals over people rather than noise seeds: the traces are resampled by person (GeoLife's user folder,
/// else each trace file alone) with replacement, every seed's runs of a drawn person kept together, and each ratio
/// recomputed from the drawn people's summed counts; the interval is the 2.5th to 97.5th percentile of 1,000 such
/// draws. A seed interval says how much the noise model moves a figure on the same moments; this one says how far it
/// would move on other people like these — the question a study that recommends a configuration has to answer.
package enum ClusterBootstrap {
    static let draws = 1_000

    /// The counts the people intervals are ratios of, summed over one person's traces and every seed.
    package struct Counts: Sendable, Hashable {
        var moments = 0.0
        var served = 0.0
        var caught = 0.0
        var notifications = 0.0
        var servedNotifications = 0.0
        var refreshCalls = 0.0
        var gpsSeconds = 0.0
        var hours = 0.0
        var onScreen = 0.0
        var alerts = 0.0
        var alertsAtMoment = 0.0
        var longStays = 0.0
        var longStaysAlerted = 0.0
        var strayAlerts = 0.0
        var strayQuiet = 0.0

        init() {}

        init(_ m: StrategyMetrics) {
            moments = Double(m.cardMoments)
            served = Double(m.served)
            caught = Double(m.caught)
            notifications = Double(m.notifications)
            servedNotifications = Double(m.servedNotifications)
            refreshCalls = Double(m.refreshCalls)
            gpsSeconds = m.gpsSeconds
            hours = m.hours
            onScreen = Double(m.tiers.onScreen)
            alerts = Double(m.tiers.alerts)
            alertsAtMoment = Double(m.tiers.alertsAtMoment)
            longStays = Double(m.tiers.longStays)
            longStaysAlerted = Double(m.tiers.longStaysAlerted)
            strayAlerts = Double(m.tiers.strayAlerts)
            strayQuiet = Double(m.tiers.strayQuiet)
        }

        mutating func add(_ c: Counts) {
            moments += c.moments
            served += c.served
            caught += c.caught
            notifications += c.notifications
            servedNotifications += c.servedNotifications
            refreshCalls += c.refreshCalls
            gpsSeconds += c.gpsSeconds
            hours += c.hours
            onScreen += c.onScreen
            alerts += c.alerts
            alertsAtMoment += c.alertsAtMoment
            longStays += c.longStays
            longStaysAlerted += c.longStaysAlerted
            strayAlerts += c.strayAlerts
            strayQuiet += c.strayQuiet
        }

        /// The ratios, by the metric names of `SweepResult`; nil where the denominator is zero.
        var ratios: [String: Double?] {
            [
                "served_recall": moments > 0 ? served / moments : nil,
                "recall_before_leaving": moments > 0 ? caught / moments : nil,
                "precision": notifications > 0 ? servedNotifications / notifications : nil,
                "refresh_calls_per_hour": hours > 0 ? refreshCalls / hours : nil,
                "gps_seconds_per_hour": hours > 0 ? gpsSeconds / hours : nil,
                "on_screen_recall": moments > 0 ? onScreen / moments : nil,
                "alert_precision": alerts > 0 ? alertsAtMoment / alerts : nil,
                "alert_long_stay_recall": longStays > 0 ? longStaysAlerted / longStays : nil,
                "buzzes_per_10h": hours > 0 ? strayAlerts / hours * 10 : nil,
                "quiet_stray_per_10h": hours > 0 ? strayQuiet / hours * 10 : nil,
            ]
        }
    }

    package static let metricNames = [
        "served_recall", "recall_before_leaving", "precision", "refresh_calls_per_hour", "gps_seconds_per_hour", "on_screen_recall",
        "alert_precision", "alert_long_stay_recall", "buzzes_per_10h", "quiet_stray_per_10h",
    ]

    /// The person a trace belongs to: `…/<person>/Trajectory/<file>` (GeoLife's layout, whose user ids are the
    /// dataset's own: user 000 in two folders of GeoLife files is one person), else the file itself.
    package static func person(ofPath path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count >= 3, parts[parts.count - 2] == "Trajectory" { return "geolife user " + parts[parts.count - 3] }
        return path
    }

    /// Per metric: the pooled ratio over everyone, with the percentile interval of `draws` resamples of the people.
    /// `n` is the number of people. Deterministic for a given `seed`.
    package static func intervals(_ people: [Counts], seed: UInt64) -> [String: Interval] {
        guard !people.isEmpty else { return [:] }
        var all = Counts()
        for p in people { all.add(p) }
        var rng = SeededRandom(seed: seed)
        var samples: [String: [Double]] = [:]
        for _ in 0..<draws {
            var drawn = Counts()
            for _ in people.indices { drawn.add(people[Int.random(in: 0..<people.count, using: &rng)]) }
            for (name, value) in drawn.ratios { if let value { samples[name, default: []].append(value) } }
        }
        var out: [String: Interval] = [:]
        for name in metricNames {
            guard let estimate = all.ratios[name] ?? nil, let values = samples[name], !values.isEmpty else { continue }
            let sorted = values.sorted()
            func quantile(_ q: Double) -> Double { sorted[min(sorted.count - 1, max(0, Int((q * Double(sorted.count)).rounded(.down))))] }
            out[name] = Interval(estimate: estimate, low: min(estimate, quantile(0.025)), high: max(estimate, quantile(0.975)), n: people.count)
        }
        return out
    }
}
