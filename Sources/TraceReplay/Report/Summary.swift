import Foundation
import OnCueClient

/// `summary.json`: every trace's cleaning report and metrics per strategy beside both oracles, and batch totals.
package struct ReplaySummary: Sendable, Codable {
    package struct TraceEntry: Sendable, Codable {
        package var trace: String
        package var report: TraceReport
        package var seed: UInt64
        package var fixes: Int
        /// Fixes the OS delivered after dropouts.
        package var phoneFixes: Int
        package var stores: Int
        package var locationVisits: Int
        package var cardMoments: Int
        package var passThroughs: Int
        package var strategies: [StrategyMetrics]
        package var oracleOS: StrategyMetrics
        package var idealOS: StrategyMetrics
        package var oracle: StrategyMetrics

        enum CodingKeys: String, CodingKey {
            case trace, report, seed, fixes, stores, strategies, oracle
            case phoneFixes = "phone_fixes"
            case locationVisits = "location_visits"
            case cardMoments = "card_moments"
            case passThroughs = "pass_throughs"
            case oracleOS = "oracle_os"
            case idealOS = "ideal_os"
        }
    }

    package var tool: String = "oncue replay"
    /// The scenario's name (its file's `name`, else the profile's).
    package var scenario: String
    package var profile: String
    package var seed: UInt64
    package var wallet: [String]
    package var traces: [TraceEntry]
    package var totals: [StrategyMetrics]
    package var oracleOSTotal: StrategyMetrics
    package var idealOSTotal: StrategyMetrics
    package var oracleTotal: StrategyMetrics
    /// Settings `--recommended` and `--set` applied over the scenario (absent when none were).
    package var applied: [String: String]?

    enum CodingKeys: String, CodingKey {
        case tool, scenario, profile, seed, wallet, traces, totals, applied
        case oracleOSTotal = "oracle_os_total"
        case idealOSTotal = "ideal_os_total"
        case oracleTotal = "oracle_total"
    }

    package init(scenario: Scenario, wallet: Wallet, runs: [TraceRun]) {
        self.scenario = scenario.name
        profile = scenario.profile
        seed = scenario.seed
        self.wallet = wallet.networkIds
        traces = runs.map {
            TraceEntry(
                trace: $0.trace.name, report: $0.trace.report, seed: $0.seed, fixes: $0.trace.fixCount, phoneFixes: $0.phoneFixes,
                stores: $0.stores.count, locationVisits: $0.visits.count, cardMoments: $0.moments.count, passThroughs: $0.passThroughs.count,
                strategies: $0.runs.map(\.metrics), oracleOS: $0.oracleOS.metrics, idealOS: $0.idealOS.metrics,
                oracle: $0.oracle.metrics)
        }
        let names = runs.first?.runs.map(\.strategy.name) ?? []
        let os = StrategyMetrics.total(runs.map(\.oracleOS.metrics), strategy: "oracle-os")
        func relative(_ m: StrategyMetrics) -> StrategyMetrics {
            var m = m
            if let r = m.recall, let ro = os.recall, ro > 0 { m.recallVsOracleOS = r / ro }
            return m
        }
        totals = names.enumerated().map { i, name in relative(StrategyMetrics.total(runs.map { $0.runs[i].metrics }, strategy: name)) }
        oracleOSTotal = relative(os)
        idealOSTotal = relative(StrategyMetrics.total(runs.map(\.idealOS.metrics), strategy: "ideal-os"))
        oracleTotal = relative(StrategyMetrics.total(runs.map(\.oracle.metrics), strategy: "oracle"))
    }

    /// Sorted keys, fixed float formatting by JSONEncoder: the same inputs give the same bytes.
    package func json() throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try e.encode(self), as: UTF8.self) + "\n"
    }

    /// All rows of the comparison: strategies, then `oracle-os`, `ideal-os` and `oracle`.
    package var allTotals: [StrategyMetrics] { totals + [oracleOSTotal, idealOSTotal, oracleTotal] }

    /// The comparison table: one row per strategy (batch totals), the references last.
    package func comparisonTable() -> (header: [String], rows: [[String]]) {
        let header = [
            "strategy", "moments", "on screen at till", "alert prec.", "alert, stays ≥ 10 min", "buzzes at no moment /10 h",
            "quiet at no moment /10 h", "quiet stray median s", "to screen p50 s", "to alert p50 s",
            "served", "by +1/+2/+5/+10 min", "precision", "before leaving", "prec. before leaving", "p50 s",
            "p90 s", "dup", "not mon.", "OS det.", "region det.", "app unconf.", "app policy", "app late", "refresh/h", "refresh fails", "churn/h",
            "wakes/h", "GPS s/h",
            "over OS limit", "location recall",
        ]
        let rows = allTotals.map { m in
            [
                m.strategy, String(m.cardMoments), Self.pct(m.tiers.onScreenRecall), Self.pct(m.tiers.alertPrecision),
                Self.pct(m.tiers.alertLongStayRecall), String(format: "%.1f", m.tiers.buzzesPer10h), String(format: "%.1f", m.tiers.quietStrayPer10h),
                Self.secs(m.tiers.quietStrayMedianSeconds), Self.secs(m.tiers.screenDelayP50), Self.secs(m.tiers.alertDelayP50),
                Self.pct(m.servedRecall), Self.shares(m.cardByShare), Self.pct(m.precision),
                Self.pct(m.recall), Self.pct(m.precisionBeforeLeaving), Self.secs(m.delayP50), Self.secs(m.delayP90), String(m.duplicates),
                String(m.missedNotMonitored), String(m.missedOSDetection), String(m.missedRegionDetection),
                String(m.missedNotConfirmed), String(m.missedPolicy), String(m.late),
                String(format: "%.2f", m.refreshCallsPerHour), String(m.refreshFailures), String(format: "%.1f", m.regionChurnPerHour),
                String(format: "%.1f", m.wakesPerHour), String(format: "%.0f", m.gpsSecondsPerHour), String(m.monitorFailures),
                Self.pct(m.locationRecall),
            ]
        }
        return (header, rows)
    }

    /// What each column of `comparisonTable` counts, printed under it (a column name alone left readers guessing).
    package static let columnNotes = """
        moments: card moments (visits to a network the wallet holds). As the person sees the cards (study IV): on screen
        at till: moments with a card of their network on screen, quiet or alert, at the till (posted since its window
        opened); alert prec.: alerts (cards that buzzed: posted as alerts or upgraded to one) at a moment of their
        network ÷ all alerts; alert, stays ≥ 10 min: moments of 10 minutes or more that got an alert; buzzes / quiet at
        no moment /10 h: alerts and quiet cards at no moment of their network, per 10 hours of trace, and the median
        time such a quiet card stayed on screen; to screen / to alert p50 s: from arrival to the first card on screen
        and to the first alert. A single-tier client's cards are all alerts. The columns from served on are studies
        I–III's, counted on the alerts. served: moments whose card came in time to use
        it — from 5 min before arrival to the till, arrival + min(10 min, half the stay) by default
        (ground_truth.pay_after_seconds, per category pay_after_by_category); by +1/+2/+5/+10 min: moments whose card
        had come by then; precision: cards that came in time at a moment of their network ÷ all cards; before leaving:
        moments whose card came any time before the person left, and the precision counted that way; p50 s / p90 s:
        delay of the first card from arrival; dup: extra cards at one moment. Moments not served, by cause — not mon.:
        no region of it monitored (the strategy's loss); OS det.: monitored, not reported in time, and oracle-os missed
        it too (the OS's loss); region det.: not reported, though oracle-os caught it (the region registered was too
        small, or registered while inside); app unconf.: the OS reported the person inside by the till and the app's
        own stay check never confirmed (summary.json's not_confirmed_by names the rule that held it); app policy: a
        repeat card held back by the cool-down, a card shown too early or withdrawn; app late: the card came, but
        after the till (late means after the till everywhere; a card after the 60 s grace but by the till is slow).
        refresh/h: region-refresh calls per hour; refresh fails: calls that failed (network, server); churn/h: regions started and
        stopped per hour; wakes/h: app wake-ups; GPS s/h: seconds of the app's own GPS per hour; over OS limit: regions
        the OS refused; location recall: the same per store, a card crediting every store of the region that fired.
        References: oracle-os monitors every card location under this OS with the phone's fixes; ideal-os the same from
        exact positions; oracle shows each card at arrival from the true path (100 % by construction). None waits to
        confirm.
        """

    static func shares(_ v: [Double]?) -> String {
        v.map { $0.map { String(format: "%.0f", $0 * 100) }.joined(separator: "/") + "%" } ?? "-"
    }

    static func pct(_ v: Double?) -> String { v.map { String(format: "%.1f%%", $0 * 100) } ?? "-" }
    static func secs(_ v: Double?) -> String { v.map { String(format: "%.0f", $0) } ?? "-" }
}
