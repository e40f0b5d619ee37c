/// A refresh strategy of the phone app. Specs: `document`, `fixed`, `guaranteed`, `bubble`, `staged`, and the
/// references `oracle`, `ideal-os` and `oracle-os`; `+clamp` asks the server for no region below the OS's reliable minimum radius (`min_radius_meters`); `+gps`
/// confirms the stay with the app's own GPS before posting the card, and `+motion` rests that GPS while the phone's
/// motion sensor says the person walks; `@N` sets `max_regions` (e.g. `guaranteed+clamp@10`, `staged+gps@16`,
/// `guaranteed+clamp+gps+motion`).
public struct Strategy: Sendable, Hashable, Codable {
    package enum Threshold: String, Sendable, Codable {
        /// max(largest region radius, 500 m) — the product document.
        case fixed
        /// The server's `refresh_after_meters` (the guaranteed refresh distance).
        case server
    }

    /// What the strategy is measured as.
    package enum Role: String, Sendable, Codable {
        /// The app, asking the engine.
        case app
        /// The true path known: each moment's card at its arrival, no wrong card — the top of the scale.
        case oracle
        /// Every card location monitored under the scenario's OS rules from exact positions on the true path, no
        /// region limit, regions as large as the OS needs, no confirmation delay: what this OS allows with perfect fixes.
        case idealOS = "ideal-os"
        /// The same with the scenario's fixes (noise, dropouts): what any strategy could reach on this OS and phone.
        case oracleOS = "oracle-os"
    }

    /// The spec it was parsed from (the table's row label).
    public var name: String
    package var role: Role
    package var threshold: Threshold
    /// Ask the server for a refresh region and refresh when the phone leaves it.
    package var refreshRegion: Bool
    /// Regions asked of the server (for `staged`: wide regions and small ones together, within the OS limit).
    package var maxRegions: Int
    /// Keep unchanged regions (and their state) instead of stop-all/start-all.
    package var diff: Bool
    /// Ask the OS for the state of newly added regions (catches the store the phone is already in).
    package var requestState: Bool
    /// The pseudo-code exactly: refresh only when moved ≥ threshold AND 6 h passed, on significant-change wakes only.
    package var literal: Bool
    /// Register no region smaller than the OS's reliable minimum radius.
    package var clamp: Bool
    /// Wide regions wake the app, which then watches the store's own small region until arrival.
    package var staged: Bool
    /// When the OS reports the person near a store, the app's own GPS decides: the card once they have stayed.
    package var gps: Bool
    /// With `gps`: GPS rests while the motion sensor says the person walks (no stay can be under way).
    package var motion = false

    package var isOracle: Bool { role != .app }

    package static let defaultComparison = ["document", "fixed", "guaranteed", "bubble", "staged"]
    package static let bases = ["document", "fixed", "guaranteed", "bubble", "staged", "oracle", "ideal-os", "oracle-os"]

    public static func parse(_ spec: String) throws -> Strategy {
        let parts = spec.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        var maxRegions = 20
        if parts.count == 2 {
            guard let n = Int(parts[1]), (1...100).contains(n) else { throw ScenarioError.invalid("strategy '\(spec)': @N must be 1...100") }
            maxRegions = n
        }
        let words = (parts.first.map(String.init) ?? "").split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        var s = Strategy(
            name: spec, role: .app, threshold: .server, refreshRegion: false, maxRegions: maxRegions, diff: true,
            requestState: true, literal: false, clamp: false, staged: false, gps: false)
        switch words.first ?? "" {
        case "document":
            s.threshold = .fixed
            s.diff = false
            s.requestState = false
            s.literal = true
        case "fixed": s.threshold = .fixed
        case "guaranteed": break
        case "bubble": s.refreshRegion = true
        case "staged": s.staged = true
        case "oracle": s.role = .oracle
        case "oracle-os": s.role = .oracleOS
        case "ideal-os": s.role = .idealOS
        default:
            throw ScenarioError.invalid(
                "unknown strategy '\(spec)' (expected \(bases.joined(separator: ", ")), optionally +clamp, +gps, +motion and @N)")
        }
        for modifier in words.dropFirst() {
            guard ["clamp", "gps", "motion"].contains(modifier), s.role == .app else {
                throw ScenarioError.invalid("strategy '\(spec)': '+\(modifier)' is not a modifier (+clamp, +gps or +motion, on app strategies)")
            }
            switch modifier {
            case "clamp": s.clamp = true
            case "gps": s.gps = true
            default: s.motion = true
            }
        }
        if s.motion && !s.gps { throw ScenarioError.invalid("strategy '\(spec)': +motion rests the app's GPS, so it needs +gps") }
        if s.isOracle && parts.count == 2 { throw ScenarioError.invalid("strategy '\(spec)': an oracle has no region limit") }
        return s
    }

    public static let oracle = try! parse("oracle")
    package static let oracleOS = try! parse("oracle-os")
    package static let idealOS = try! parse("ideal-os")
}
