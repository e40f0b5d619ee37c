import Foundation

/// What the study recommends, by platform, as a file the replay runs by name (`simulations/recommended.json`):
///
///     {"ios": {"strategy": "guaranteed+clamp+gps", "set": {"app.min_refresh_interval_seconds": 1800}},
///      "android": {"strategy": "staged+gps", "set": {}}}
///
/// `strategy` is a strategy spec; `set` holds scenario key paths with their values, applied as `--set` applies them.
package struct Recommendation: Sendable {
    package struct Platform: Sendable {
        public var strategy: String
        /// (key path, value as JSON would give it), in key order.
        package var settings: [(key: String, value: String)]
    }

    package var platforms: [String: Platform]

    /// One value of `set`: JSON's scalars, told apart by the decoder (a boolean is not the number 1).
    private enum Scalar: Decodable {
        case bool(Bool)
        case number(Double)
        case string(String)

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let b = try? c.decode(Bool.self) {
                self = .bool(b)
            } else if let n = try? c.decode(Double.self) {
                self = .number(n)
            } else {
                self = .string(try c.decode(String.self))
            }
        }

        var text: String {
            switch self {
            case .bool(let b): b ? "true" : "false"
            case .number(let n): n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
            case .string(let s): s
            }
        }
    }

    private struct Entry: Decodable {
        var strategy: String
        var set: [String: Scalar]?
    }

    public static func load(json data: Data) throws -> Recommendation {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ScenarioError.invalid("a recommendation file must be a JSON object of platforms")
        }
        for (name, value) in object {
            guard Scenario.profiles.contains(name) else {
                throw ScenarioError.invalid("recommendation: unknown platform '\(name)' (expected \(Scenario.profiles.joined(separator: ", ")))")
            }
            if let unknown = (value as? [String: Any])?.keys.first(where: { $0 != "strategy" && $0 != "set" }) {
                throw ScenarioError.invalid("recommendation '\(name)': unknown key '\(unknown)' (expected strategy and set)")
            }
        }
        let entries: [String: Entry]
        do { entries = try JSONDecoder().decode([String: Entry].self, from: data) } catch {
            throw ScenarioError.invalid(
                "recommendation: expected {\"<platform>\": {\"strategy\": \"…\", \"set\": {\"<scenario key>\": <number, string or boolean>}}}")
        }
        var platforms: [String: Platform] = [:]
        for (name, entry) in entries {
            if try Strategy.parse(entry.strategy).isOracle {
                throw ScenarioError.invalid("recommendation '\(name)': '\(entry.strategy)' is a reference, not an app strategy")
            }
            let set = entry.set ?? [:]
            platforms[name] = Platform(strategy: entry.strategy, settings: set.keys.sorted().map { ($0, set[$0]!.text) })
        }
        return Recommendation(platforms: platforms)
    }

    /// The settings the recommendation sets for a profile, in key order.
    package func settings(for profile: String) throws -> [(key: String, value: String)] {
        guard let platform = platforms[profile] else {
            throw ScenarioError.invalid("the recommendation has nothing for profile '\(profile)'")
        }
        return platform.settings
    }

    /// The scenario with the platform's settings applied, and its strategy; throws when the file has none for the
    /// scenario's profile.
    public func apply(to scenario: Scenario) throws -> (scenario: Scenario, strategy: String) {
        guard let platform = platforms[scenario.profile] else {
            throw ScenarioError.invalid(
                "the recommendation has nothing for profile '\(scenario.profile)' (it has \(platforms.keys.sorted().joined(separator: ", ")))")
        }
        return (try Self.set(platform.settings, on: scenario), platform.strategy)
    }

    /// `scenario` with `KEY=VALUE` settings applied one by one (scenario key paths such as `app.confirm_seconds`).
    public static func set(_ settings: [(key: String, value: String)], on scenario: Scenario) throws -> Scenario {
        var out = scenario
        for (key, value) in settings { out = try out.applying(SweepGrid.override(path: key, value: value)) }
        return out
    }

    /// `KEY=VALUE` as given to `--set`.
    package static func parseSetting(_ spec: String) throws -> (key: String, value: String) {
        guard let eq = spec.firstIndex(of: "="), eq != spec.startIndex else { throw ScenarioError.invalid("--set '\(spec)': expected KEY=VALUE") }
        let key = String(spec[..<eq]).trimmingCharacters(in: .whitespaces)
        let value = String(spec[spec.index(after: eq)...]).trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty, !value.isEmpty else { throw ScenarioError.invalid("--set '\(spec)': expected KEY=VALUE") }
        return (key, value)
    }
}
