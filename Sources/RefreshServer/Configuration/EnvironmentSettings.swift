import Foundation
import Logging

/// The environment variables `oncue serve` reads; a flag given on the command line wins over its variable.
public enum EnvironmentSettings {
    /// Every variable with what it sets, for `--help` and the README.
    public static let documented: [(name: String, meaning: String)] = [
        ("ONCUE_DB", "the store: a SQLite file or a postgres:// URL (--db)"),
        ("ONCUE_DB_READ", "a hot standby's postgres:// URL for index builds and read-only routes (--db-read)"),
        ("ONCUE_STORE_POLL_SECONDS", "seconds between checks of a PostGIS store's version (--store-poll-seconds, default 5)"),
        ("ONCUE_HOST", "address to bind (--host, default 127.0.0.1)"),
        ("ONCUE_PORT", "TCP port (--port, default 8080)"),
        ("ONCUE_ADMIN_TOKEN", "bearer token enabling /admin/* (unset: admin API disabled)"),
        ("ONCUE_ADMIN_TOKEN_FILE", "file whose first line is the admin token"),
        ("ONCUE_MAX_BODY_BYTES", "largest JSON body in bytes (default 65536)"),
        ("ONCUE_MAX_IMPORT_BYTES", "largest CSV upload in bytes (default 268435456)"),
        ("ONCUE_RATE_LIMIT_RPS", "requests per second per client (default 50; 0 disables limiting)"),
        ("ONCUE_RATE_LIMIT_BURST", "token-bucket size per client (default 100)"),
        ("ONCUE_CLIENT_IP_HEADER", "header naming the client, e.g. X-Forwarded-For (default: peer address)"),
        ("ONCUE_LOG_LEVEL", "trace, debug, info, notice, warning, error, critical (default info)"),
        ("ONCUE_GEOCODER", "Nominatim-compatible geocoder for admin imports with ?geocode= (--geocoder)"),
        ("ONCUE_GEOCODER_RPS", "geocoder requests per second (--geocoder-rps, default 1)"),
        ("ONCUE_HEAD_TIMEOUT", "seconds to receive a request head, then 408 (--head-timeout, default 10)"),
        ("ONCUE_BODY_TIMEOUT", "seconds to receive a request body, then 408 (--body-timeout, default 30)"),
        ("ONCUE_UPLOAD_TIMEOUT", "seconds to receive a POST /admin/imports body (--upload-timeout, default 900)"),
        ("ONCUE_IDLE_TIMEOUT", "seconds a keep-alive connection may wait for its next request (--idle-timeout, default 60)"),
        ("ONCUE_MAX_CONNECTIONS", "connections open at once; more wait in the backlog (--max-connections, default 1000)"),
        ("ONCUE_SHUTDOWN_TIMEOUT", "seconds after SIGTERM before open connections are closed (--shutdown-timeout, default 15)"),
    ]

    /// The connection settings: each variable's name, its flag, its range, and where it goes.
    public struct ConnectionSetting: Sendable {
        public let variable: String
        public let flag: String
        public let range: ClosedRange<Double>
        public let keyPath: any WritableKeyPath<ConnectionLimits, Double> & Sendable
    }

    public static let connectionSettings: [ConnectionSetting] = [
        .init(variable: "ONCUE_HEAD_TIMEOUT", flag: "--head-timeout", range: 0.1...3_600, keyPath: \.headSeconds),
        .init(variable: "ONCUE_BODY_TIMEOUT", flag: "--body-timeout", range: 0.1...3_600, keyPath: \.bodySeconds),
        .init(variable: "ONCUE_UPLOAD_TIMEOUT", flag: "--upload-timeout", range: 0.1...86_400, keyPath: \.uploadSeconds),
        .init(variable: "ONCUE_IDLE_TIMEOUT", flag: "--idle-timeout", range: 0.1...3_600, keyPath: \.idleSeconds),
        .init(variable: "ONCUE_SHUTDOWN_TIMEOUT", flag: "--shutdown-timeout", range: 0...3_600, keyPath: \.shutdownSeconds),
    ]

    /// A number of seconds for one connection setting, in its range.
    public static func seconds(_ text: String, _ setting: ConnectionSetting, source: String) throws(ConfigurationError) -> Double {
        guard let value = Double(text), value.isFinite, setting.range.contains(value) else {
            throw ConfigurationError("\(source) must be a number of seconds in [\(setting.range.lowerBound), \(setting.range.upperBound)], got '\(text.prefix(32))'")
        }
        return value
    }

    public static let maxConnectionsRange = 1...1_000_000

    /// Reads a whole configuration from variables alone; `oncue serve` overlays its flags on this.
    public static func configuration(from environment: [String: String]) throws(ConfigurationError) -> ServerConfiguration {
        var configuration = ServerConfiguration(database: environment["ONCUE_DB"] ?? "")
        configuration.readDatabase = nonEmpty(environment["ONCUE_DB_READ"])
        if let poll = nonEmpty(environment["ONCUE_STORE_POLL_SECONDS"]) {
            guard let seconds = Double(poll), seconds >= 0.1, seconds <= 3_600 else {
                throw ConfigurationError("ONCUE_STORE_POLL_SECONDS must be a number of seconds in [0.1, 3600]")
            }
            configuration.storePollSeconds = seconds
        }
        if let host = nonEmpty(environment["ONCUE_HOST"]) { configuration.host = host }
        if let port = try integer(environment, "ONCUE_PORT", in: 0...65_535) { configuration.port = port }
        configuration.adminToken = try adminToken(token: environment["ONCUE_ADMIN_TOKEN"], file: environment["ONCUE_ADMIN_TOKEN_FILE"])
        if let bytes = try integer(environment, "ONCUE_MAX_BODY_BYTES", in: 256...(64 << 20)) { configuration.maxBodyBytes = bytes }
        if let bytes = try integer(environment, "ONCUE_MAX_IMPORT_BYTES", in: 1...(1 << 40)) { configuration.maxImportBytes = bytes }
        configuration.rateLimit = try rateLimit(rps: environment["ONCUE_RATE_LIMIT_RPS"], burst: environment["ONCUE_RATE_LIMIT_BURST"],
                                                current: configuration.rateLimit)
        if let header = nonEmpty(environment["ONCUE_CLIENT_IP_HEADER"]) { configuration.clientIPHeader = header }
        if let level = nonEmpty(environment["ONCUE_LOG_LEVEL"]) { configuration.logLevel = try logLevel(level, source: "ONCUE_LOG_LEVEL") }
        if let url = nonEmpty(environment["ONCUE_GEOCODER"]) { configuration.geocoderURL = try geocoderURL(url, source: "ONCUE_GEOCODER") }
        if let rps = nonEmpty(environment["ONCUE_GEOCODER_RPS"]) {
            configuration.geocoderRequestsPerSecond = try geocoderRate(rps, source: "ONCUE_GEOCODER_RPS")
        }
        for setting in connectionSettings {
            if let text = nonEmpty(environment[setting.variable]) {
                configuration.connections[keyPath: setting.keyPath] = try seconds(text, setting, source: setting.variable)
            }
        }
        if let count = try integer(environment, "ONCUE_MAX_CONNECTIONS", in: maxConnectionsRange) { configuration.connections.maxConnections = count }
        return configuration
    }

    /// An http(s) URL with a host; the message never repeats the text, which may hold a password.
    public static func geocoderURL(_ text: String, source: String) throws(ConfigurationError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty else {
            throw ConfigurationError("\(source) must be an http:// or https:// URL with a host")
        }
        return url
    }

    public static func geocoderRate(_ text: String, source: String) throws(ConfigurationError) -> Double {
        guard let value = Double(text), value.isFinite, value > 0, value <= 1000 else {
            throw ConfigurationError("\(source) must be a number in (0, 1000], got '\(text.prefix(32))'")
        }
        return value
    }

    /// The token given directly, else the first line of the token file; an empty token is refused
    /// because it would make every request "authenticated".
    public static func adminToken(token: String?, file: String?) throws(ConfigurationError) -> String? {
        if let token = nonEmpty(token) {
            guard token.utf8.count >= 16 else { throw ConfigurationError("the admin token must be at least 16 characters") }
            return token
        }
        guard let file = nonEmpty(file) else { return nil }
        guard let data = FileManager.default.contents(atPath: file) else { throw ConfigurationError("cannot read the admin token file \(file)") }
        let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.utf8.count >= 16 else { throw ConfigurationError("the admin token in \(file) must be at least 16 characters") }
        return trimmed
    }

    /// A rate limit from its two settings; a rate of 0 disables limiting.
    public static func rateLimit(rps: String?, burst: String?, current: ServerConfiguration.RateLimit?) throws(ConfigurationError)
        -> ServerConfiguration.RateLimit? {
        var limit = current ?? .init(requestsPerSecond: 50, burst: 100)
        if let rps = nonEmpty(rps) {
            guard let value = Double(rps), value.isFinite, value >= 0 else { throw ConfigurationError("ONCUE_RATE_LIMIT_RPS must be a number >= 0, got '\(rps)'") }
            if value == 0 { return nil }
            limit.requestsPerSecond = value
        }
        if let burst = nonEmpty(burst) {
            guard let value = Double(burst), value.isFinite, value >= 1 else { throw ConfigurationError("ONCUE_RATE_LIMIT_BURST must be a number >= 1, got '\(burst)'") }
            limit.burst = value
        }
        return current == nil && rps == nil && burst == nil ? nil : limit
    }

    public static func logLevel(_ text: String, source: String) throws(ConfigurationError) -> Logger.Level {
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw ConfigurationError("\(source) must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'")
        }
        return level
    }

    static func integer(_ environment: [String: String], _ name: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
        guard let text = nonEmpty(environment[name]) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw ConfigurationError("\(name) must be an integer in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return value
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
