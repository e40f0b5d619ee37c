import Foundation
import OnCueClient

/// What the study recommends, by platform, as a file the replay runs by name (`simulations/recommended.json`):
///
///     {"ios": {"strategy": "guaranteed+clamp+gps", "set": {"app.min_refresh_interval_seconds": 1800}},
///      "android": {"strategy": "staged+gps", "set": {}}}
///
/// `strategy` is a strategy spec; `set` holds scenario key paths with their values, applied as `--set` applies them.
package struct Recommendation: Sendable {
    package struct Platform: Sendable {
        package var strategy: String
        /// (key path, value as JSON would give it), in key order.
        package var settings: [(key: String, value: String)]
    }

    package var platforms: [String: Platform]

    /// Reads the file with the client library's parser (`RecommendationFile`), then checks what only the replay
    /// knows: the platforms are profiles, and the strategies are app strategies, not references.
    package static func load(json data: Data) throws -> Recommendation {
        let file: RecommendationFile
        do { file = try RecommendationFile.load(json: data) } catch { throw ScenarioError.invalid(error.description) }
        var platforms: [String: Platform] = [:]
        for (name, entry) in file.platforms {
            guard Scenario.profiles.contains(name) else {
                throw ScenarioError.invalid("recommendation: unknown platform '\(name)' (expected \(Scenario.profiles.joined(separator: ", ")))")
            }
            if try Strategy.parse(entry.strategy).isOracle {
                throw ScenarioError.invalid("recommendation '\(name)': '\(entry.strategy)' is a reference, not an app strategy")
            }
            platforms[name] = Platform(strategy: entry.strategy, settings: entry.settings.map { ($0.key, $0.value.text) })
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
    package func apply(to scenario: Scenario) throws -> (scenario: Scenario, strategy: String) {
        guard let platform = platforms[scenario.profile] else {
            throw ScenarioError.invalid(
                "the recommendation has nothing for profile '\(scenario.profile)' (it has \(platforms.keys.sorted().joined(separator: ", ")))")
        }
        return (try Self.set(platform.settings, on: scenario), platform.strategy)
    }

    /// `scenario` with `KEY=VALUE` settings applied one by one (scenario key paths such as `app.confirm_seconds`).
    package static func set(_ settings: [(key: String, value: String)], on scenario: Scenario) throws -> Scenario {
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
