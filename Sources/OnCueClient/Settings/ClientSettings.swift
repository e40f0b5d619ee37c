import Foundation

/// Everything an app configures the client with, in one value: the strategy, the app's settings (the study's
/// `app.*` keys), the retry backoff (its `network.backoff_*` keys) and the store footprint a stay is judged against.
/// `recommended(json:platform:)` reads the study's `simulations/recommended.json`.
public struct ClientSettings: Codable, Sendable, Hashable {
    public var strategy: ClientStrategy
    public var app: AppSettings
    /// A failed refresh is retried no earlier than this after the failure (or the server's `Retry-After`, if
    /// longer), doubling up to `backoffMaxSeconds`.
    public var backoffInitialSeconds: Double
    public var backoffMaxSeconds: Double
    /// A store's footprint: a stay is at the store when its position is within this of it (the study's
    /// `ground_truth.store_radius_meters`, so the app judges a visit as the study scores one)...
    public var storeRadiusMeters: Double
    /// ...allowing a fix's accuracy up to this (`ground_truth.nominal_accuracy_meters`): a coarse fix would stretch
    /// the store over the pavement outside.
    public var nominalAccuracyMeters: Double

    /// The backoff an app ships with (the study's `network.backoff_*` defaults are these).
    public static let defaultBackoffInitialSeconds = 30.0
    public static let defaultBackoffMaxSeconds = 1_800.0

    public init(
        strategy: ClientStrategy, app: AppSettings = AppSettings(), backoffInitialSeconds: Double = defaultBackoffInitialSeconds,
        backoffMaxSeconds: Double = defaultBackoffMaxSeconds, storeRadiusMeters: Double = 100, nominalAccuracyMeters: Double = 10
    ) {
        self.strategy = strategy
        self.app = app
        self.backoffInitialSeconds = backoffInitialSeconds
        self.backoffMaxSeconds = backoffMaxSeconds
        self.storeRadiusMeters = storeRadiusMeters
        self.nominalAccuracyMeters = nominalAccuracyMeters
    }

    /// The study's recommendation for one platform (`ios`, `android`): its strategy, and its `set` of `app.*` and
    /// `network.backoff_*` keys over the defaults (`RecommendationFile` reads the file).
    public static func recommended(json data: Data, platform: String) throws(ClientSettingsError) -> ClientSettings {
        guard let entry = try RecommendationFile.load(json: data).platforms[platform] else {
            throw .invalid("the recommendation has no strategy for '\(platform)'")
        }
        var settings = ClientSettings(strategy: try ClientStrategy.parse(entry.strategy))
        var app: [String: Any] = [:]
        for setting in entry.settings {
            switch setting.key {
            case "network.backoff_initial_seconds": settings.backoffInitialSeconds = try number(setting.value, setting.key)
            case "network.backoff_max_seconds": settings.backoffMaxSeconds = try number(setting.value, setting.key)
            case let key where key.hasPrefix("app."): app[String(key.dropFirst(4))] = setting.value.object
            default: throw .invalid("recommendation '\(platform)': '\(setting.key)' is not a client setting (app.* or network.backoff_*)")
            }
        }
        settings.app = try AppSettings.decode(snakeCase: app)
        return settings
    }

    private static func number(_ value: RecommendationFile.Value, _ key: String) throws(ClientSettingsError) -> Double {
        guard case .number(let n) = value else { throw .invalid("'\(key)' must be a number") }
        return n
    }
}

extension AppSettings {
    /// Settings from a snake_case JSON object (`{"gps_confirm_seconds": 30}`) over the defaults; unknown keys are
    /// refused, so a typo never falls back to a default unseen.
    public static func decode(snakeCase object: [String: Any]) throws(ClientSettingsError) -> AppSettings {
        let known = Set(CodingKeys.allCases.map { snakeCase($0.rawValue) })
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalid("unknown app setting '\(unknown)' (known: \(known.sorted().joined(separator: ", ")))")
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(AppSettings.self, from: JSONSerialization.data(withJSONObject: object))
        } catch {
            throw .invalid("app settings do not decode: \(error)")
        }
    }

    static func snakeCase(_ name: String) -> String {
        name.reduce(into: "") { out, c in
            if c.isUppercase { out += "_" }
            out += c.lowercased()
        }
    }
}
