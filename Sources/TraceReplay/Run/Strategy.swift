import OnCueClient

/// What one replay run measures: an app strategy (`ClientStrategy`, the client library's: `document`, `fixed`,
/// `guaranteed`, `bubble`, `staged`, with `+clamp`, `+gps`, `+motion` and `@N`), or a reference — `oracle`,
/// `ideal-os` or `oracle-os` — that no app could ship but that bounds what any could reach.
public struct Strategy: Sendable, Hashable {
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
    /// The app's strategy; a reference runs the client with its fixed regions instead of a server.
    package var app: ClientStrategy

    package var isOracle: Bool { role != .app }
    package var motion: Bool { app.motion }

    package static let defaultComparison = ["document", "fixed", "guaranteed", "bubble", "staged"]
    package static let bases = ClientStrategy.bases + ["oracle", "ideal-os", "oracle-os"]

    public static func parse(_ spec: String) throws -> Strategy {
        let parts = spec.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let words = (parts.first.map(String.init) ?? "").split(separator: "+", omittingEmptySubsequences: false)
        guard let reference = Role(rawValue: String(words.first ?? "")), reference != .app else {
            guard ClientStrategy.bases.contains(String(words.first ?? "")) else {
                throw ScenarioError.invalid(
                    "unknown strategy '\(spec)' (expected \(bases.joined(separator: ", ")), optionally +clamp, +gps, +motion and @N)")
            }
            do { return Strategy(name: spec, role: .app, app: try ClientStrategy.parse(spec)) } catch {
                throw ScenarioError.invalid(error.description)
            }
        }
        if let modifier = words.dropFirst().first {
            throw ScenarioError.invalid("strategy '\(spec)': '+\(modifier)' is not a modifier (+clamp, +gps or +motion, on app strategies)")
        }
        if parts.count == 2 { throw ScenarioError.invalid("strategy '\(spec)': an oracle has no region limit") }
        return Strategy(name: spec, role: reference, app: try! ClientStrategy.parse("guaranteed"))
    }

    public static let oracle = try! parse("oracle")
    package static let oracleOS = try! parse("oracle-os")
    package static let idealOS = try! parse("ideal-os")
}
