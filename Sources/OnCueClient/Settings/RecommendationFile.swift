import Foundation

/// The study's recommendation file (`simulations/recommended.json`) as both its readers take it: the app
/// (`ClientSettings.recommended(json:platform:)`) and the replay (`oncue replay --recommended`). One parser, so the two
/// cannot disagree on what the file says:
///
///     {"ios": {"strategy": "guaranteed+clamp+gps", "set": {"app.card_tiers": "two", "app.gps_confirm_seconds": 30}},
///      "android": {…}}
///
/// Each platform names a strategy spec and, in `set`, settings by the study's key paths with JSON scalars as values; a
/// platform object with another member, or a value that is no scalar, is refused.
public struct RecommendationFile: Sendable, Hashable {
    /// One setting's value as the file wrote it.
    public enum Value: Sendable, Hashable {
        case bool(Bool)
        case number(Double)
        case string(String)

        /// The value as `--set KEY=VALUE` would give it: booleans as words, whole numbers without a decimal point.
        public var text: String {
            switch self {
            case .bool(let b): b ? "true" : "false"
            case .number(let n): n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
            case .string(let s): s
            }
        }

        /// The value as `JSONSerialization` would give it (for `AppSettings.decode(snakeCase:)`).
        var object: Any {
            switch self {
            case .bool(let b): b
            case .number(let n): n
            case .string(let s): s
            }
        }
    }

    public struct Platform: Sendable, Hashable {
        public var strategy: String
        /// The settings in key order.
        public var settings: [Setting]
    }

    public struct Setting: Sendable, Hashable {
        public var key: String
        public var value: Value
    }

    public var platforms: [String: Platform]

    /// Reads the file; `ClientSettingsError.invalid` says what is wrong with it.
    public static func load(json data: Data) throws(ClientSettingsError) -> RecommendationFile {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw .invalid("a recommendation file must be a JSON object of platforms")
        }
        var platforms: [String: Platform] = [:]
        for (name, entry) in object {
            guard let entry = entry as? [String: Any], let strategy = entry["strategy"] as? String else {
                throw .invalid("recommendation '\(name)': expected {\"strategy\": \"…\", \"set\": {\"<key>\": <number, string or boolean>}}")
            }
            if let unknown = entry.keys.sorted().first(where: { $0 != "strategy" && $0 != "set" }) {
                throw .invalid("recommendation '\(name)': unknown key '\(unknown)' (expected strategy and set)")
            }
            let set = entry["set"] as? [String: Any] ?? [:]
            if entry["set"] != nil && entry["set"] as? [String: Any] == nil { throw .invalid("recommendation '\(name)': 'set' must be an object") }
            var settings: [Setting] = []
            for key in set.keys.sorted() {
                guard let value = scalar(set[key]!) else {
                    throw .invalid("recommendation '\(name)': '\(key)' must be a number, a string or a boolean")
                }
                settings.append(Setting(key: key, value: value))
            }
            platforms[name] = Platform(strategy: strategy, settings: settings)
        }
        return RecommendationFile(platforms: platforms)
    }

    /// A JSON scalar, telling a boolean from the number 1 as Foundation's objects do.
    private static func scalar(_ any: Any) -> Value? {
        if let n = any as? NSNumber {
            // Foundation's booleans are NSNumbers of type "c" (char).
            return String(cString: n.objCType) == "c" ? .bool(n.boolValue) : .number(n.doubleValue)
        }
        if let s = any as? String { return .string(s) }
        return nil
    }
}
