import Foundation

/// Every parameter of a replay: the OS model, the fix model, the network, the app, ground truth, cleaning
/// and the strategies. A scenario file (JSON, snake_case keys) names a `profile` and overrides any subset of
/// that profile's defaults; unknown keys are rejected so a typo never silently falls back to a default.
public struct Scenario: Codable, Sendable, Hashable {
    public var name: String
    /// `ios`, `android` or `ideal`: the defaults underneath this file.
    public var profile: String
    public var seed: UInt64
    public var os: OSModel
    public var fixes: FixModel
    public var network: NetworkModel
    public var app: AppModel
    public var groundTruth: GroundTruthModel
    public var trace: TraceCleaning
    /// Strategy specs (see `Strategy.parse`); the first is the one the HTML report maps.
    public var strategies: [String]

    public static let profiles = ["ios", "android", "ideal"]

    /// The defaults of a profile.
    public static func profile(_ name: String) throws -> Scenario {
        switch name {
        case "ios": return Scenario(name: "ios", profile: "ios", seed: 1, os: .ios, fixes: .phone, network: .init(), app: .init(),
                                    groundTruth: .init(), trace: .init(), strategies: Strategy.defaultComparison)
        case "android": return Scenario(name: "android", profile: "android", seed: 1, os: .android, fixes: .phone, network: .init(), app: .init(),
                                        groundTruth: .init(), trace: .init(), strategies: Strategy.defaultComparison)
        case "ideal": return Scenario(name: "ideal", profile: "ideal", seed: 1, os: .ideal, fixes: .exact, network: .instant, app: .init(),
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
        do { return try Self.decoder.decode(Scenario.self, from: data) } catch {
            throw ScenarioError.invalid("scenario does not decode: \(error)")
        }
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

    /// The full scenario as JSON (every parameter, for the record in `summary.json`).
    public func json() throws -> String { String(decoding: try Self.encoder.encode(self), as: UTF8.self) }
}

/// A scenario file that cannot be used.
public enum ScenarioError: Error, Sendable, CustomStringConvertible {
    case invalid(String)
    public var description: String { switch self { case .invalid(let m): m } }
}

/// How the phone's OS monitors regions and wakes the app.
public struct OSModel: Codable, Sendable, Hashable {
    /// Regions the app may monitor; starting one more fails with an error event.
    public var maxRegions: Int
    /// `cushion` (iOS), `overlap` (Android's accuracy-circle rule) or `exact` (ideal).
    public var detection: String
    /// iOS: the position must be this far past the boundary (capped at `maxCushionFraction` × radius)...
    public var cushionMeters: Double
    public var maxCushionFraction: Double
    /// ...for this long before an entry or exit fires.
    public var dwellSeconds: Double
    /// Extra delay between the OS deciding and the app hearing (uniform in [min, max], seeded).
    public var detectionDelayMinSeconds: Double
    public var detectionDelayMaxSeconds: Double
    /// Android: entry when at least this fraction of the accuracy circle overlaps the fence, exit at most `exitOverlap`.
    public var entryOverlap: Double
    public var exitOverlap: Double
    /// Android `INITIAL_TRIGGER_ENTER`: adding a fence the phone is inside fires an entry. iOS: false (the app must ask).
    public var initialTriggerEntry: Bool
    /// Significant-location-change wake-ups: at least this far and this long after the previous one.
    public var slcMinMeters: Double
    public var slcMinSeconds: Double
    /// Visit wake-ups (CLVisit): staying within `visitRadiusMeters` for `visitMinMinutes`. 0 disables.
    public var visitMinMinutes: Double
    public var visitRadiusMeters: Double
    /// Background execution time per wake; a refresh slower than this is killed (0 = unlimited).
    public var backgroundSeconds: Double
    /// The app sees every fix (foreground / ideal).
    public var wakeOnEveryFix: Bool

    public static let ios = OSModel(maxRegions: 20, detection: "cushion", cushionMeters: 200, maxCushionFraction: 0.5, dwellSeconds: 20,
                                    detectionDelayMinSeconds: 5, detectionDelayMaxSeconds: 30, entryOverlap: 0.85, exitOverlap: 0.15,
                                    initialTriggerEntry: false, slcMinMeters: 500, slcMinSeconds: 300, visitMinMinutes: 5,
                                    visitRadiusMeters: 100, backgroundSeconds: 10, wakeOnEveryFix: false)
    public static let android = OSModel(maxRegions: 100, detection: "overlap", cushionMeters: 0, maxCushionFraction: 0, dwellSeconds: 0,
                                        detectionDelayMinSeconds: 30, detectionDelayMaxSeconds: 180, entryOverlap: 0.85, exitOverlap: 0.15,
                                        initialTriggerEntry: true, slcMinMeters: 500, slcMinSeconds: 300, visitMinMinutes: 0,
                                        visitRadiusMeters: 100, backgroundSeconds: 10, wakeOnEveryFix: false)
    public static let ideal = OSModel(maxRegions: 1_000_000, detection: "exact", cushionMeters: 0, maxCushionFraction: 0, dwellSeconds: 0,
                                      detectionDelayMinSeconds: 0, detectionDelayMaxSeconds: 0, entryOverlap: 0.5, exitOverlap: 0.5,
                                      initialTriggerEntry: true, slcMinMeters: 0, slcMinSeconds: 0, visitMinMinutes: 0,
                                      visitRadiusMeters: 100, backgroundSeconds: 0, wakeOnEveryFix: true)
}

/// Where the OS's fixes come from: the trace plus seeded noise per fix source, and dropouts.
public struct FixModel: Codable, Sendable, Hashable {
    public struct Source: Codable, Sendable, Hashable {
        public var name: String
        /// Relative frequency.
        public var weight: Double
        /// Reported horizontal accuracy (68 % radius) is uniform in [min, max] metres; the error follows it.
        public var accuracyMinMeters: Double
        public var accuracyMaxMeters: Double

        public init(name: String, weight: Double, accuracyMinMeters: Double, accuracyMaxMeters: Double) {
            self.name = name
            self.weight = weight
            self.accuracyMinMeters = accuracyMinMeters
            self.accuracyMaxMeters = accuracyMaxMeters
        }
    }

    public var sources: [Source]
    /// Chance per fix that a dropout (no fixes) starts, and its mean length.
    public var dropoutProbability: Double
    public var dropoutMeanSeconds: Double

    public static let phone = FixModel(sources: [
        Source(name: "gps", weight: 0.7, accuracyMinMeters: 5, accuracyMaxMeters: 10),
        Source(name: "wifi", weight: 0.25, accuracyMinMeters: 20, accuracyMaxMeters: 50),
        Source(name: "cell", weight: 0.05, accuracyMinMeters: 300, accuracyMaxMeters: 1_500),
    ], dropoutProbability: 0.002, dropoutMeanSeconds: 120)
    public static let exact = FixModel(sources: [Source(name: "exact", weight: 1, accuracyMinMeters: 0, accuracyMaxMeters: 0)],
                                       dropoutProbability: 0, dropoutMeanSeconds: 0)
}

/// The refresh call's transport: latency, failures and outages (virtual time, never slept).
public struct NetworkModel: Codable, Sendable, Hashable {
    public var latencyMinSeconds: Double = 0.2
    public var latencyMaxSeconds: Double = 1.5
    /// Chance that one call fails outright.
    public var failureProbability: Double = 0
    /// Outage windows as [start, end] seconds after the trace's first fix: every call inside fails.
    public var outages: [[Double]] = []
    /// A failed refresh is retried no earlier than this after the failure, doubling up to the maximum.
    public var backoffInitialSeconds: Double = 30
    public var backoffMaxSeconds: Double = 1_800

    public init() {}
    public static let instant: NetworkModel = { var n = NetworkModel(); n.latencyMinSeconds = 0; n.latencyMaxSeconds = 0; return n }()
}

/// The phone app's settings (the product document's `LocationService`).
public struct AppModel: Codable, Sendable, Hashable {
    public var radiusKm: Double = 50
    /// Refresh at least this often when woken (6 h).
    public var refreshIntervalSeconds: Double = 21_600
    /// The fixed policy's floor: refresh after max(largest region radius, this) metres.
    public var fixedMinimumMeters: Double = 500
    /// No second notification for the same location within this time.
    public var cooldownSeconds: Double = 3_600
    /// Let the server fill spare slots with networks the user has no card for.
    public var includeOtherNetworks: Bool = false

    public init() {}
}

/// What counts as a real store visit, and how notifications are matched to visits.
public struct GroundTruthModel: Codable, Sendable, Hashable {
    /// A visit: the true trace within the store radius plus fix accuracy for at least this long.
    public var minDwellSeconds: Double = 120
    /// The store's footprint when the location has no radius of its own.
    public var storeRadiusMeters: Double = 100
    /// Fix accuracy assumed when the trace has none.
    public var nominalAccuracyMeters: Double = 10
    /// A notification matches a visit from this long before arrival...
    public var matchBeforeSeconds: Double = 600
    /// ...until this long after departure.
    public var matchAfterSeconds: Double = 300
    /// Stores farther than this from every fix are not considered.
    public var candidateMarginMeters: Double = 2_000

    public init() {}
}
