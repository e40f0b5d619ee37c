import Foundation
import OnCueClient

/// A sweep's grid: `NAME=v1,v2,…` axes, crossed. `strategy` and `max_regions` change the strategy spec,
/// `radius_scale` the engine's radius policy, `cooldown` the app's cool-down (seconds); any other name is a scenario
/// key path (`os.fence_check_moving_seconds`, `app.staged_slots`, `ground_truth.store_radius_meters`, …).
package struct SweepGrid: Sendable, Hashable {
    package struct Axis: Sendable, Hashable {
        package var name: String
        package var values: [String]
    }

    /// One scenario the grid runs: its settings (every axis but `strategy` and `max_regions`), the scenario with
    /// them applied, the engine's radius scale, and the strategy specs replayed under it.
    package struct Variant: Sendable {
        package var settings: [(name: String, value: String)]
        package var scenario: Scenario
        package var radiusScale: Double
        package var strategies: [String]
    }

    package var axes: [Axis]

    package static func parse(_ specs: [String]) throws -> SweepGrid {
        var axes: [Axis] = []
        for spec in specs {
            guard let eq = spec.firstIndex(of: "=") else { throw ScenarioError.invalid("--sweep '\(spec)': expected NAME=v1,v2,…") }
            let name = String(spec[..<eq]).trimmingCharacters(in: .whitespaces)
            let values = spec[spec.index(after: eq)...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !name.isEmpty, !values.isEmpty else { throw ScenarioError.invalid("--sweep '\(spec)': expected NAME=v1,v2,…") }
            guard !axes.contains(where: { $0.name == name }) else { throw ScenarioError.invalid("--sweep: '\(name)' given twice") }
            guard Set(values).count == values.count else { throw ScenarioError.invalid("--sweep '\(spec)': a value is repeated") }
            axes.append(Axis(name: name, values: values))
        }
        return SweepGrid(axes: axes)
    }

    package var isEmpty: Bool { axes.isEmpty }

    /// Every point of the grid over `base`, grouped into scenario variants. `strategies` is used when the grid has
    /// no `strategy` axis. Throws on a value that does not fit its key.
    package func variants(base: Scenario, strategies: [String]) throws -> [Variant] {
        let strategyAxis = axes.first { $0.name == "strategy" }?.values ?? strategies
        let regionAxis = axes.first { $0.name == "max_regions" }?.values
        let others = axes.filter { $0.name != "strategy" && $0.name != "max_regions" }
        var specs: [String] = []
        for s in strategyAxis {
            let bare = String(s.split(separator: "@", maxSplits: 1).first ?? "")
            for n in regionAxis ?? [""] { specs.append(n.isEmpty ? s : "\(bare)@\(n)") }
        }
        for s in specs where try Strategy.parse(s).isOracle {
            throw ScenarioError.invalid("'\(s)' is always replayed as a reference; sweep app strategies only")
        }
        var combos: [[(String, String)]] = [[]]
        for axis in others { combos = combos.flatMap { c in axis.values.map { c + [(axis.name, $0)] } } }
        return try combos.map { settings in
            var scenario = base
            var scale = 1.0
            for (name, value) in settings {
                switch name {
                case "radius_scale":
                    guard let v = Double(value), v > 0, v.isFinite else {
                        throw ScenarioError.invalid("--sweep radius_scale: '\(value)' is not a positive number")
                    }
                    scale = v
                case "cooldown":
                    guard let v = Double(value), v >= 0, v.isFinite else {
                        throw ScenarioError.invalid("--sweep cooldown: '\(value)' is not seconds >= 0")
                    }
                    scenario.app.cooldownSeconds = v
                default:
                    scenario = try scenario.applying(Self.override(path: name, value: value))
                }
            }
            return Variant(settings: settings, scenario: scenario, radiusScale: scale, strategies: specs)
        }
    }

    /// `{"os": {"dwell_seconds": 30}}` from `os.dwell_seconds` and `30` (numbers, booleans, else strings).
    static func override(path: String, value: String) -> [String: Any] {
        let parsed: Any
        if let v = Double(value) {
            parsed = v == v.rounded() && abs(v) < 1e15 ? Int(v) as Any : v as Any
        } else if value == "true" || value == "false" {
            parsed = value == "true"
        } else {
            parsed = value
        }
        var out: [String: Any] = [:]
        let keys = path.split(separator: ".").map(String.init)
        for (i, key) in keys.enumerated().reversed() {
            out = i == keys.count - 1 ? [key: parsed] : [key: out]
        }
        return out
    }
}
