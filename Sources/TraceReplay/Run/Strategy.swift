/// A refresh strategy of the phone app. Specs: `document`, `fixed`, `guaranteed`, `bubble`, `oracle`,
/// each optionally with `@N` for `max_regions` (e.g. `guaranteed@10`).
public struct Strategy: Sendable, Hashable, Codable {
    public enum Threshold: String, Sendable, Codable {
        /// max(largest region radius, 500 m) — the product document.
        case fixed
        /// The server's `refresh_after_meters` (the guaranteed refresh distance).
        case server
    }

    /// The spec it was parsed from (the table's row label).
    public var name: String
    public var threshold: Threshold
    /// Ask the server for a refresh region and refresh when the phone leaves it.
    public var refreshRegion: Bool
    public var maxRegions: Int
    /// Keep unchanged regions (and their state) instead of stop-all/start-all.
    public var diff: Bool
    /// Ask the OS for the state of newly added regions (catches the store the phone is already in).
    public var requestState: Bool
    /// The pseudo-code exactly: refresh only when moved ≥ threshold AND 6 h passed, on significant-change wakes only.
    public var literal: Bool
    /// Monitor every card location of the trace's area with the ideal OS: the upper bound.
    public var oracle: Bool

    /// Compared by `--compare` when the scenario does not list strategies.
    public static let defaultComparison = ["document", "fixed", "guaranteed", "bubble", "guaranteed@10"]

    public static func parse(_ spec: String) throws -> Strategy {
        let parts = spec.split(separator: "@", maxSplits: 1)
        var maxRegions = 20
        if parts.count == 2 {
            guard let n = Int(parts[1]), (1...100).contains(n) else { throw ScenarioError.invalid("strategy '\(spec)': @N must be 1...100") }
            maxRegions = n
        }
        var s = Strategy(name: spec, threshold: .server, refreshRegion: false, maxRegions: maxRegions, diff: true, requestState: true,
                         literal: false, oracle: false)
        switch parts.first.map(String.init) ?? "" {
        case "document": s.threshold = .fixed; s.diff = false; s.requestState = false; s.literal = true
        case "fixed": s.threshold = .fixed
        case "guaranteed": break
        case "bubble": s.refreshRegion = true
        case "oracle": s.oracle = true
        default:
            throw ScenarioError.invalid("unknown strategy '\(spec)' (expected document, fixed, guaranteed, bubble or oracle, optionally @N)")
        }
        return s
    }

    public static let oracleStrategy = Strategy(name: "oracle", threshold: .server, refreshRegion: false, maxRegions: 1_000_000, diff: true,
                                                requestState: true, literal: false, oracle: true)
}
