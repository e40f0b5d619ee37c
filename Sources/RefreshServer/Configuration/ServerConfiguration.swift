import Foundation
import Logging

/// Everything `oncue serve` can be told, from flags or environment variables.
public struct ServerConfiguration: Sendable, Hashable {
    /// The store the index is built from and imports are written to: a SQLite file or a `postgres://` URL.
    public var database: String
    /// A read replica (a hot standby's URL) for index builds and read-only admin routes; writes go to `database`.
    public var readDatabase: String?
    /// Seconds between checks of the store's version (PostGIS): a missed `NOTIFY` delays a rebuild by at most this.
    public var storePollSeconds: Double = 5
    /// Address to bind; only loopback by default so that a server is never exposed by accident.
    public var host: String
    /// TCP port; 0 picks a free one (tests).
    public var port: Int
    /// The bearer token of `/admin/*`; nil disables the admin API (it answers 404).
    public var adminToken: String?
    /// Largest JSON body accepted (bytes); larger bodies get 413.
    public var maxBodyBytes: Int
    /// Largest CSV accepted by `POST /admin/imports` (bytes); streamed to disk, never held in memory.
    public var maxImportBytes: Int
    /// Token-bucket rate limit per client; nil disables limiting.
    public var rateLimit: RateLimit?
    /// A header carrying the client address (e.g. `X-Forwarded-For` behind a proxy); nil uses the peer address.
    public var clientIPHeader: String?
    /// Minimum level of the server's log.
    public var logLevel: Logger.Level
    /// Where uploaded CSV files are staged before import.
    public var temporaryDirectory: String
    /// The Nominatim-compatible geocoder admin imports use when they ask for geocoding without naming one.
    public var geocoderURL: URL?
    /// At most this many requests per second to the geocoder.
    public var geocoderRequestsPerSecond: Double = 1
    /// Timeouts, the connection cap and the shutdown deadline.
    public var connections = ConnectionLimits()

    /// A per-client token bucket: `burst` requests at once, refilled at `requestsPerSecond`.
    public struct RateLimit: Sendable, Hashable {
        public var requestsPerSecond: Double
        public var burst: Double

        public init(requestsPerSecond: Double, burst: Double) {
            self.requestsPerSecond = requestsPerSecond
            self.burst = burst
        }
    }

    public static let defaultMaxBodyBytes = 64 * 1024
    public static let defaultMaxImportBytes = 256 * 1024 * 1024

    public init(database: String, host: String = "127.0.0.1", port: Int = 8080, adminToken: String? = nil,
                maxBodyBytes: Int = defaultMaxBodyBytes, maxImportBytes: Int = defaultMaxImportBytes,
                rateLimit: RateLimit? = RateLimit(requestsPerSecond: 50, burst: 100), clientIPHeader: String? = nil,
                logLevel: Logger.Level = .info, temporaryDirectory: String = NSTemporaryDirectory()) {
        self.database = database
        self.host = host
        self.port = port
        self.adminToken = adminToken
        self.maxBodyBytes = maxBodyBytes
        self.maxImportBytes = maxImportBytes
        self.rateLimit = rateLimit
        self.clientIPHeader = clientIPHeader
        self.logLevel = logLevel
        self.temporaryDirectory = temporaryDirectory
    }
}

/// A configuration value that could not be used; names the flag or variable it came from.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
