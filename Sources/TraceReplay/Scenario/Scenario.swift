import Foundation
import OnCueClient

/// Every parameter of a replay: the OS model, the fix model, the network, the app, ground truth, cleaning
/// and the strategies. A scenario file (JSON, snake_case keys) names a `profile` and overrides any subset of
/// that profile's defaults; unknown keys are rejected so a typo never silently falls back to a default.
public struct Scenario: Codable, Sendable, Hashable {
    public var name: String
    /// `ios`, `android` or `ideal`: the defaults underneath this file.
    public var profile: String
    public var seed: UInt64
    package var os: OSModel
    public var fixes: FixModel
    package var network: NetworkModel
    /// The app's settings: the client library's own type, so a scenario's `app.*` keys are the settings an app ships.
    package var app: AppSettings
    package var groundTruth: GroundTruthModel
    public var trace: TraceCleaning
    /// Strategy specs (see `Strategy.parse`); the first is the one the HTML report maps.
    package var strategies: [String]

    package static let profiles = ["ios", "android", "ideal"]

    /// The defaults of a profile.
    public static func profile(_ name: String) throws -> Scenario {
        switch name {
        case "ios":
            return Scenario(
                name: "ios", profile: "ios", seed: 1, os: .ios, fixes: .phone, network: .init(), app: .init(),
                groundTruth: .init(), trace: .init(), strategies: Strategy.defaultComparison)
        case "android":
            return Scenario(
                name: "android", profile: "android", seed: 1, os: .android, fixes: .phone, network: .init(), app: .init(),
                groundTruth: .init(), trace: .init(), strategies: Strategy.defaultComparison)
        case "ideal":
            return Scenario(
                name: "ideal", profile: "ideal", seed: 1, os: .ideal, fixes: .exact, network: .instant, app: .init(),
                groundTruth: .init(), trace: .init(), strategies: Strategy.defaultComparison)
        default: throw ScenarioError.invalid("unknown profile '\(name)' (expected ios, android or ideal)")
        }
    }

    /// Reads a scenario file over its profile's defaults (the file's `profile`, else `defaultProfile`).
    public static func load(json data: Data, defaultProfile: String = "ios") throws -> Scenario {
        guard let overrides = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ScenarioError.invalid("a scenario file must be a JSON object")
        }
        let profileName = overrides["profile"] as? String ?? defaultProfile
        return try profile(profileName).applying(overrides)
    }

    /// This scenario with `overrides` (snake_case JSON object) merged in, checked for unknown keys.
    public func applying(_ overrides: [String: Any]) throws -> Scenario {
        let base = try JSONSerialization.jsonObject(with: Self.encoder.encode(self)) as! [String: Any]
        let merged = try Self.merge(base, overrides, path: "")
        let data = try JSONSerialization.data(withJSONObject: merged)
        let scenario: Scenario
        do { scenario = try Self.decoder.decode(Scenario.self, from: data) } catch {
            throw ScenarioError.invalid("scenario does not decode: \(error)")
        }
        try scenario.validate()
        return scenario
    }

    /// Values the replay cannot work with are refused here, so a bad file never reaches the simulation.
    public func validate() throws {
        func check(_ ok: Bool, _ message: String) throws { if !ok { throw ScenarioError.invalid(message) } }
        let numbers: [(String, Double)] = [
            ("os.cushion_meters", os.cushionMeters), ("os.dwell_seconds", os.dwellSeconds),
            ("os.detection_delay_min_seconds", os.detectionDelayMinSeconds), ("os.detection_delay_max_seconds", os.detectionDelayMaxSeconds),
            ("os.loitering_delay_seconds", os.loiteringDelaySeconds), ("os.fence_check_moving_seconds", os.fenceCheckMovingSeconds),
            ("os.fence_check_stationary_seconds", os.fenceCheckStationarySeconds), ("os.responsiveness_seconds", os.responsivenessSeconds),
            ("os.min_reliable_radius_meters", os.minReliableRadiusMeters), ("os.periodic_wake_seconds", os.periodicWakeSeconds),
            ("os.background_seconds", os.backgroundSeconds), ("os.motion_latency_seconds", os.motionLatencySeconds),
            ("ground_truth.min_dwell_seconds", groundTruth.minDwellSeconds), ("ground_truth.store_radius_meters", groundTruth.storeRadiusMeters),
            ("ground_truth.match_before_seconds", groundTruth.matchBeforeSeconds),
            ("ground_truth.match_after_seconds", groundTruth.matchAfterSeconds),
            ("ground_truth.pay_after_seconds", groundTruth.payAfterSeconds),
            ("ground_truth.on_time_before_seconds", groundTruth.onTimeBeforeSeconds),
            ("ground_truth.on_time_after_seconds", groundTruth.onTimeAfterSeconds),
            ("fixes.dropout_mean_seconds", fixes.dropoutMeanSeconds), ("fixes.error_correlation_seconds", fixes.errorCorrelationSeconds),
        ]
        for (name, value) in numbers { try check(value.isFinite && value >= 0, "\(name) must be a number >= 0 (got \(value))") }
        for c in groundTruth.payAfterByCategory {
            try check(
                c.seconds.isFinite && c.seconds >= 0 && !c.category.isEmpty,
                "ground_truth.pay_after_by_category needs a category and seconds >= 0 (got '\(c.category)': \(c.seconds))")
        }
        try check(os.maxRegions >= 1, "os.max_regions must be at least 1")
        try check(os.detectionDelayMaxSeconds >= os.detectionDelayMinSeconds, "os.detection_delay_max_seconds is below the minimum")
        for (name, v) in [
            ("entry_overlap", os.entryOverlap), ("exit_overlap", os.exitOverlap), ("entry_overlap_coarse_fix", os.entryOverlapCoarseFix),
            ("exit_overlap_coarse_fix", os.exitOverlapCoarseFix),
        ] {
            try check(v >= 0 && v <= 1, "os.\(name) must be within 0...1")
        }
        // The app's settings are the client's to judge (as an app's would be).
        do { _ = try clientSettings(try ClientStrategy.parse("guaranteed")).validated(for: os.platformLimits) } catch {
            throw ScenarioError.invalid(error.description)
        }
        try check(
            !fixes.sources.isEmpty
                && fixes.sources.allSatisfy { $0.weight >= 0 && $0.accuracyMaxMeters >= $0.accuracyMinMeters && $0.accuracyMinMeters >= 0 },
            "fixes.sources needs at least one source, weights >= 0 and 0 <= accuracy_min_meters <= accuracy_max_meters")
        try check((0...1).contains(fixes.dropoutProbability), "fixes.dropout_probability must be within 0...1")
        for spec in strategies { _ = try Strategy.parse(spec) }
    }

    static func merge(_ base: [String: Any], _ over: [String: Any], path: String) throws -> [String: Any] {
        var out = base
        for (key, value) in over {
            let here = path.isEmpty ? key : "\(path).\(key)"
            guard let existing = base[key] else {
                throw ScenarioError.invalid("unknown scenario key '\(here)' (known: \(base.keys.sorted().joined(separator: ", ")))")
            }
            if let sub = value as? [String: Any], let baseSub = existing as? [String: Any] {
                out[key] = try merge(baseSub, sub, path: here)
            } else {
                out[key] = value
            }
        }
        return out
    }

    static var encoder: JSONEncoder {
        let e = JSONEncoder()
        e.keyEncodingStrategy = .convertToSnakeCase
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return e
    }

    static var decoder: JSONDecoder {
        let d = JSONDecoder()
        d.keyDecodingStrategy = .convertFromSnakeCase
        return d
    }

    /// The client's settings for one strategy: the app's, the network's backoff, and the ground truth's store
    /// footprint (so the app judges a stay as the study scores a visit).
    package func clientSettings(_ strategy: ClientStrategy) -> ClientSettings {
        ClientSettings(
            strategy: strategy, app: app, backoffInitialSeconds: network.backoffInitialSeconds, backoffMaxSeconds: network.backoffMaxSeconds,
            storeRadiusMeters: groundTruth.storeRadiusMeters, nominalAccuracyMeters: groundTruth.nominalAccuracyMeters)
    }

    /// Whether `path` (`app.confirm_seconds`) names a setting of every scenario, whatever its profile: a mistyped key
    /// is a usage error before anything runs.
    package static func isKnownKey(_ path: String) -> Bool {
        guard let base = try? profile("ios"), let data = try? encoder.encode(base),
            var node = try? JSONSerialization.jsonObject(with: data) as Any
        else { return false }
        for key in path.split(separator: ".", omittingEmptySubsequences: false) {
            guard let object = node as? [String: Any], let next = object[String(key)] else { return false }
            node = next
        }
        return true
    }

    /// The full scenario as JSON (every parameter, for the record in `summary.json`).
    public func json() throws -> String { String(decoding: try Self.encoder.encode(self), as: UTF8.self) }
}

/// A scenario file that cannot be used.
package enum ScenarioError: Error, Sendable, CustomStringConvertible {
    case invalid(String)
    package var description: String {
        switch self {
        case .invalid(let m): m
        }
    }
}
