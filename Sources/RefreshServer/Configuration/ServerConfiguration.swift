import Foundation
import Logging
import RegionRefresh

/// Everything `oncue serve` can be told, from flags or environment variables. Each setting, with its default, is
/// declared in `ServerSettings`; the defaults here are those.
package struct ServerConfiguration: Sendable, Hashable {
    /// The store the index is built from and imports are written to: a SQLite file or a `postgres://` URL.
    package var database: String
    /// A read replica (a hot standby's URL) for index builds and read-only admin routes; writes go to `database`.
    package var readDatabase: String?
    /// Seconds between checks of the store's version (PostGIS): a missed `NOTIFY` delays a rebuild by at most this.
    package var storePollSeconds: Double = ServerSettings.storePoll.defaultValue.inSeconds
    /// The same as a duration, as its setting reads it.
    package var storePoll: Duration {
        get { .seconds(storePollSeconds) }
        set { storePollSeconds = newValue.inSeconds }
    }
    /// Address to bind; only loopback by default so that a server is never exposed by accident.
    package var host: String
    /// TCP port; 0 picks a free one (tests).
    package var port: Int
    /// The bootstrap admin key of `/admin/*` (role `admin`); without it and without stored keys the admin API answers 404.
    package var adminToken: String?
    /// What verifies the app's access tokens on the public API; nil leaves it open.
    package var clientJWTKey: ClientJWTKey?
    /// The issuer an access token must name, when set.
    package var clientJWTIssuer: String?
    /// A value an access token's audience must include, when set.
    package var clientJWTAudience: String?
    /// The longest lifetime an access token may claim.
    package var clientJWTMaxLifetime: Duration = ServerSettings.clientJWTMaxLifetime.defaultValue
    /// Audit entries older than this many days are pruned; 0 keeps them all.
    package var auditRetentionDays: Int = ServerSettings.auditRetention.defaultValue
    /// Largest JSON body accepted (bytes); larger bodies get 413.
    package var maxBodyBytes: Int
    /// Largest CSV accepted by `POST /admin/imports` (bytes); streamed to disk, never held in memory.
    package var maxImportBytes: Int
    /// Requests per second per client; 0 disables limiting.
    package var rateLimitRequestsPerSecond: Double = ServerSettings.rateLimitRPS.defaultValue
    /// Token-bucket size per client.
    package var rateLimitBurst: Double = ServerSettings.rateLimitBurst.defaultValue
    /// A header carrying the client address (e.g. `X-Forwarded-For` behind a proxy); nil uses the peer address.
    package var clientIPHeader: String?
    /// The proxies whose `clientIPHeader` is believed; empty: loopback only.
    package var trustedProxies: [IPNetwork] = []
    /// Minimum level of the server's log.
    package var logLevel: Logger.Level
    /// Where uploaded CSV files are staged before import.
    package var temporaryDirectory: String
    /// The Nominatim-compatible geocoder admin imports use when they ask for geocoding without naming one.
    package var geocoders: [NamedGeocoder] = []
    /// The geocoder of an import that asks for geocoding without naming one: the first configured.
    package var geocoderURL: URL? {
        get { geocoders.first?.url }
        set { geocoders = newValue.map { [NamedGeocoder(name: NamedGeocoder.defaultName, url: $0)] } ?? [] }
    }
    /// At most this many requests per second to the geocoder.
    package var geocoderRequestsPerSecond: Double = ServerSettings.geocoderRPS.defaultValue
    /// The radius floor of a region-refresh request without `min_radius_meters` (metres; 0 keeps the policy's radii).
    package var minRadiusMeters: Double = ServerSettings.minRadius.defaultValue
    /// How far ahead (minutes) a store must be closed to rank after the open ones; 0 ignores opening hours.
    package var closedLookaheadMinutes: Int = ServerSettings.closedLookahead.defaultValue

    /// A raster tile layer for the console's map (`--console-tiles`); nil: the offline base map alone.
    package var consoleTilesTemplate: String? = ServerSettings.consoleTiles.defaultValue
    package var consoleTilesAttribution: String = ServerSettings.consoleTilesAttribution.defaultValue

    /// The console's tile layer, when a template is set (it was checked when it was read).
    package var consoleTiles: ConsoleTiles? {
        consoleTilesTemplate.flatMap { ConsoleTiles(template: $0, attribution: consoleTilesAttribution) }
    }

    /// The engine settings among these; the rest of the engine keeps its documented defaults.
    package var engineConfiguration: EngineConfiguration {
        EngineConfiguration(minRadiusMeters: minRadiusMeters, closedLookaheadMinutes: closedLookaheadMinutes)
    }
    /// Timeouts, the connection cap and the shutdown deadline.
    package var connections = ConnectionLimits()

    /// A per-client token bucket: `burst` requests at once, refilled at `requestsPerSecond`.
    package struct RateLimit: Sendable, Hashable {
        package var requestsPerSecond: Double
        package var burst: Double

        package init(requestsPerSecond: Double, burst: Double) {
            self.requestsPerSecond = requestsPerSecond
            self.burst = burst
        }
    }

    /// The per-client rate limit; nil (a rate of 0) disables limiting.
    package var rateLimit: RateLimit? {
        get { rateLimitRequestsPerSecond > 0 ? RateLimit(requestsPerSecond: rateLimitRequestsPerSecond, burst: rateLimitBurst) : nil }
        set {
            rateLimitRequestsPerSecond = newValue?.requestsPerSecond ?? 0
            if let burst = newValue?.burst { rateLimitBurst = burst }
        }
    }

    package static let defaultRateLimit = RateLimit(
        requestsPerSecond: ServerSettings.rateLimitRPS.defaultValue,
        burst: ServerSettings.rateLimitBurst.defaultValue
    )

    package init(
        database: String,
        host: String = ServerSettings.host.defaultValue,
        port: Int = ServerSettings.port.defaultValue,
        adminToken: String? = nil,
        maxBodyBytes: Int = ServerSettings.maxBodyBytes.defaultValue,
        maxImportBytes: Int = ServerSettings.maxImportBytes.defaultValue,
        rateLimit: RateLimit? = defaultRateLimit,
        clientIPHeader: String? = nil,
        logLevel: Logger.Level = ServerSettings.logLevel.defaultValue,
        temporaryDirectory: String = NSTemporaryDirectory()
    ) {
        self.database = database
        self.host = host
        self.port = port
        self.adminToken = adminToken
        self.maxBodyBytes = maxBodyBytes
        self.maxImportBytes = maxImportBytes
        self.clientIPHeader = clientIPHeader
        self.logLevel = logLevel
        self.temporaryDirectory = temporaryDirectory
        self.rateLimit = rateLimit
    }
}

/// A configuration value that could not be used; names the flag or variable it came from.
package struct ConfigurationError: Error, CustomStringConvertible, Sendable, Equatable {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// A geocoder the server may use, under the name an admin import picks it by: the geocoder's URL comes from the
/// server's settings, never from a request (a URL in a request would let the admin API fetch any address).
package struct NamedGeocoder: Sendable, Hashable {
    package static let defaultName = "default"
    package var name: String
    package var url: URL

    package init(name: String, url: URL) {
        self.name = name
        self.url = url
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 40 && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}
