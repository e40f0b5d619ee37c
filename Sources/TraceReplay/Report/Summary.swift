import Foundation

/// `summary.json`: the scenario, every trace's cleaning report and metrics per strategy beside the oracle, and totals.
public struct ReplaySummary: Sendable, Codable {
    public struct TraceEntry: Sendable, Codable {
        public var trace: String
        public var report: TraceReport
        public var fixes: Int
        /// Fixes the OS delivered after dropouts.
        public var phoneFixes: Int
        public var stores: Int
        public var visits: Int
        public var passThroughs: Int
        public var strategies: [StrategyMetrics]
        public var oracle: StrategyMetrics

        enum CodingKeys: String, CodingKey {
            case trace, report, fixes, stores, visits, strategies, oracle
            case phoneFixes = "phone_fixes"
            case passThroughs = "pass_throughs"
        }
    }

    public var tool: String = "oncue replay"
    public var profile: String
    public var seed: UInt64
    public var wallet: [String]
    public var traces: [TraceEntry]
    public var totals: [StrategyMetrics]
    public var oracleTotal: StrategyMetrics

    enum CodingKeys: String, CodingKey {
        case tool, profile, seed, wallet, traces, totals
        case oracleTotal = "oracle_total"
    }

    public init(scenario: Scenario, wallet: Wallet, runs: [TraceRun]) {
        profile = scenario.profile
        seed = scenario.seed
        self.wallet = wallet.networkIds
        traces = runs.map {
            TraceEntry(trace: $0.trace.name, report: $0.trace.report, fixes: $0.trace.fixCount, phoneFixes: $0.phoneFixes, stores: $0.stores.count,
                       visits: $0.visits.count, passThroughs: $0.passThroughs.count, strategies: $0.runs.map(\.metrics), oracle: $0.oracle.metrics)
        }
        let names = runs.first?.runs.map(\.strategy.name) ?? []
        totals = names.enumerated().map { i, name in StrategyMetrics.total(runs.map { $0.runs[i].metrics }, strategy: name) }
        oracleTotal = StrategyMetrics.total(runs.map(\.oracle.metrics), strategy: "oracle")
    }

    /// Sorted keys, fixed float formatting by JSONEncoder: the same inputs give the same bytes.
    public func json() throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try e.encode(self), as: UTF8.self) + "\n"
    }

    /// The comparison table: one row per strategy (batch totals), the oracle last.
    public func comparisonTable() -> (header: [String], rows: [[String]]) {
        let header = ["strategy", "visits", "caught", "recall", "oracle recall", "precision", "p50 s", "p90 s", "missed: not monitored",
                      "missed: detection", "refresh/h", "churn/h", "21st fails"]
        func pct(_ v: Double?) -> String { v.map { String(format: "%.1f%%", $0 * 100) } ?? "-" }
        func secs(_ v: Double?) -> String { v.map { String(format: "%.0f", $0) } ?? "-" }
        let rows = (totals + [oracleTotal]).map { m in
            [m.strategy, String(m.visits), String(m.caught), pct(m.recall), pct(oracleTotal.recall), pct(m.precision), secs(m.delayP50),
             secs(m.delayP90), String(m.missedNotMonitored), String(m.missedByDetection), String(format: "%.2f", m.refreshCallsPerHour),
             String(format: "%.1f", m.regionChurnPerHour), String(m.monitorFailures)]
        }
        return (header, rows)
    }
}
