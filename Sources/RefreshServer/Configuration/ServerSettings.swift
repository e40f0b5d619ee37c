import ChainImport
import Foundation
import Logging
import OnCueContract
import RegionRefresh

/// The settings of `oncue serve`, each declared once. `oncue serve` declares a flag for each (its name and help from
/// here), `configuration(environment:flags:)` reads flags and variables through the same parsers, README's table is
/// `markdownTable` (a test compares them), and `ServerConfiguration`'s defaults are these.
///
/// The store (`--db`, `ONCUE_DB`) is not among them: every command that opens a store takes it the same way.
package enum ServerSettings {
    package static let dbRead = ServerSetting<String?>(
        flag: "db-read",
        variable: "ONCUE_DB_READ",
        type: .postgresURL,
        default: nil,
        defaultNote: "none",
        secret: true,
        summary: "A hot standby's postgres:// URL for index builds and read-only routes",
        at: \.readDatabase
    )

    package static let storePoll = ServerSetting<Duration>(
        flag: "store-poll-seconds",
        variable: "ONCUE_STORE_POLL_SECONDS",
        type: .duration(in: Duration.milliseconds(100)...Duration.seconds(3_600)),
        default: .seconds(5),
        summary:
            "Time between checks of the store's version (and of its admin keys): a missed NOTIFY waits at most this; a SQLite file, which announces nothing, is checked every 2 s at most",
        at: \.storePoll
    )

    package static let host = ServerSetting<String>(
        flag: "host",
        variable: "ONCUE_HOST",
        type: .host,
        default: "127.0.0.1",
        summary: "Address to bind",
        at: \.host
    )

    package static let port = ServerSetting<Int>(
        flag: "port",
        variable: "ONCUE_PORT",
        type: .integer(in: 0...65_535, valueName: "port"),
        default: 8080,
        summary: "TCP port, 0 for any free port",
        at: \.port
    )

    /// Before `adminToken`: of two variables the token wins; a flag wins over both.
    package static let adminTokenFile = ServerSetting<String?>(
        flag: "admin-token-file",
        variable: "ONCUE_ADMIN_TOKEN_FILE",
        type: .adminTokenFile,
        default: nil,
        defaultNote: "none",
        printed: false,
        summary: "File whose first line is the admin bearer token",
        at: \.adminToken
    )

    /// No flag: a token on the command line would be in every process listing.
    package static let adminToken = ServerSetting<String?>(
        flag: nil,
        variable: "ONCUE_ADMIN_TOKEN",
        type: .adminToken,
        default: nil,
        defaultNote: "none: without keys the admin API answers 404",
        secret: true,
        summary: "Bootstrap admin key (role admin) enabling /admin/*; more keys with `oncue keys`",
        beside: adminTokenFile,
        at: \.adminToken
    )

    package static let clientJWT = ServerSetting<ClientJWTKey?>(
        flag: "client-jwt",
        variable: "ONCUE_CLIENT_JWT",
        type: .clientJWTKey,
        default: nil,
        defaultNote: "none: the public API is open",
        summary:
            "File with the HS256 secret or the JWKS of the app backend's access tokens; when set, region-refresh, networks and locations answer 401 without a valid token",
        at: \.clientJWTKey
    )

    package static let clientJWTIssuer = ServerSetting<String?>(
        flag: "client-jwt-issuer",
        variable: "ONCUE_CLIENT_JWT_ISSUER",
        type: .optionalText(maxLength: 500),
        default: nil,
        defaultNote: "any",
        summary: "The iss an access token must have",
        beside: clientJWT,
        at: \.clientJWTIssuer
    )

    package static let clientJWTAudience = ServerSetting<String?>(
        flag: "client-jwt-audience",
        variable: "ONCUE_CLIENT_JWT_AUDIENCE",
        type: .optionalText(maxLength: 500),
        default: nil,
        defaultNote: "any",
        summary: "A value an access token's aud must include",
        beside: clientJWT,
        at: \.clientJWTAudience
    )

    package static let clientJWTMaxLifetime = ServerSetting<Duration>(
        flag: "client-jwt-max-lifetime",
        variable: "ONCUE_CLIENT_JWT_MAX_LIFETIME",
        type: .duration(in: Duration.seconds(60)...Duration.seconds(30 * 86_400)),
        default: .seconds(86_400),
        summary: "Longest lifetime an access token may claim (exp after iat, or after now without iat); longer ones get 401",
        at: \.clientJWTMaxLifetime
    )

    package static let maxBodyBytes = ServerSetting<Int>(
        flag: "max-body-bytes",
        variable: "ONCUE_MAX_BODY_BYTES",
        type: .integer(in: 256...(64 << 20), valueName: "bytes"),
        default: 64 << 10,
        summary: "Largest JSON body in bytes; larger ones get 413",
        at: \.maxBodyBytes
    )

    package static let maxImportBytes = ServerSetting<Int>(
        flag: "max-import-bytes",
        variable: "ONCUE_MAX_IMPORT_BYTES",
        type: .integer(in: 1...(1 << 40), valueName: "bytes"),
        default: 256 << 20,
        summary: "Largest CSV upload in bytes, streamed to disk",
        at: \.maxImportBytes
    )

    package static let rateLimitRPS = ServerSetting<Double>(
        flag: "rate-limit-rps",
        variable: "ONCUE_RATE_LIMIT_RPS",
        type: .number(in: 0...1e9, valueName: "rate"),
        default: 50,
        summary: "Requests per second per client, 0 disables limiting",
        at: \.rateLimitRequestsPerSecond
    )

    package static let rateLimitBurst = ServerSetting<Double>(
        flag: "rate-limit-burst",
        variable: "ONCUE_RATE_LIMIT_BURST",
        type: .number(in: 1...1e9, valueName: "requests"),
        default: 100,
        summary: "Token-bucket size per client",
        beside: rateLimitRPS,
        at: \.rateLimitBurst
    )

    package static let clientIPHeader = ServerSetting<String?>(
        flag: "client-ip-header",
        variable: "ONCUE_CLIENT_IP_HEADER",
        type: .headerName,
        default: nil,
        defaultNote: "none: the peer address",
        summary: "Header naming the client behind a proxy, e.g. X-Forwarded-For",
        at: \.clientIPHeader
    )

    package static let trustedProxies = ServerSetting<[IPNetwork]>(
        flag: "trusted-proxy",
        variable: "ONCUE_TRUSTED_PROXIES",
        type: .ipNetworks,
        default: [],
        defaultNote: "loopback",
        repeatable: true,
        summary:
            "Proxies (CIDR; repeat the flag or list them with commas) whose client header is believed: the client is the right-most address in it that is not one of them",
        beside: clientIPHeader,
        at: \.trustedProxies
    )

    package static let minRadius = ServerSetting<Double>(
        flag: "min-radius-m",
        variable: "ONCUE_MIN_RADIUS_M",
        type: .number(in: 0...RefreshParameters.maxMinRadiusMeters, valueName: "metres"),
        default: 0,
        summary: "Smallest region radius for requests without min_radius_meters; 0 keeps the density tiers",
        at: \.minRadiusMeters
    )

    package static let closedLookahead = ServerSetting<Int>(
        flag: "closed-lookahead-minutes",
        variable: "ONCUE_CLOSED_LOOKAHEAD_MINUTES",
        type: .integer(in: 0...EngineConfiguration.maxClosedLookaheadMinutes, valueName: "minutes"),
        default: EngineConfiguration().closedLookaheadMinutes,
        summary:
            "With a request's local_time, a store closed for this many minutes from then (its opening_hours) ranks after the open ones; 0 ignores opening hours",
        at: \.closedLookaheadMinutes
    )

    package static let consoleTiles = ServerSetting<String?>(
        flag: "console-tiles",
        variable: "ONCUE_CONSOLE_TILES",
        type: .tileURLTemplate,
        default: nil,
        defaultNote: "none: the offline base map alone",
        summary: "Raster tiles for the console's map, e.g. https://tiles.example.org/{z}/{x}/{y}.png (a server you may use)",
        at: \.consoleTilesTemplate
    )

    package static let consoleTilesAttribution = ServerSetting<String>(
        flag: "console-tiles-attribution",
        variable: "ONCUE_CONSOLE_TILES_ATTRIBUTION",
        type: .text(maxLength: 200),
        default: ConsoleTiles.defaultAttribution,
        summary: "The credit the tiles' licence asks for, shown on the map",
        beside: consoleTiles,
        at: \.consoleTilesAttribution
    )

    package static let geocoder = ServerSetting<[NamedGeocoder]>(
        flag: "geocoder",
        variable: "ONCUE_GEOCODER",
        type: .namedGeocoders,
        default: [],
        defaultNote: "none",
        secret: true,
        summary:
            "Nominatim-compatible geocoders admin imports may use, picked by name (geocoder=NAME); the first is the default",
        at: \.geocoders
    )

    package static let geocoderRPS = ServerSetting<Double>(
        flag: "geocoder-rps",
        variable: "ONCUE_GEOCODER_RPS",
        type: .number(in: 0...1_000, lowerExcluded: true, valueName: "rate"),
        default: 1,
        summary: "Geocoder requests per second",
        beside: geocoder,
        at: \.geocoderRequestsPerSecond
    )

    package static let headTimeout = ServerSetting<Duration>(
        flag: "head-timeout",
        variable: "ONCUE_HEAD_TIMEOUT",
        type: .duration(in: Duration.milliseconds(100)...Duration.seconds(3_600)),
        default: limits.headTimeout,
        summary: "Time to receive a request head, then 408",
        at: \.connections.headTimeout
    )

    package static let bodyTimeout = ServerSetting<Duration>(
        flag: "body-timeout",
        variable: "ONCUE_BODY_TIMEOUT",
        type: .duration(in: Duration.milliseconds(100)...Duration.seconds(3_600)),
        default: limits.bodyTimeout,
        summary: "Time to receive a request body, then 408",
        at: \.connections.bodyTimeout
    )

    package static let uploadTimeout = ServerSetting<Duration>(
        flag: "upload-timeout",
        variable: "ONCUE_UPLOAD_TIMEOUT",
        type: .duration(in: Duration.milliseconds(100)...Duration.seconds(86_400)),
        default: limits.uploadTimeout,
        summary: "Time to receive a POST /admin/imports body",
        at: \.connections.uploadTimeout
    )

    package static let uploadMinRate = ServerSetting<Int>(
        flag: "upload-min-bytes-per-second",
        variable: "ONCUE_UPLOAD_MIN_BYTES_PER_SECOND",
        type: .integer(in: 0...(1 << 30), valueName: "bytes"),
        default: limits.uploadMinBytesPerSecond,
        summary: "Slowest POST /admin/imports body, measured over each 10 s; a slower upload is cut with 408 (0: no floor)",
        at: \.connections.uploadMinBytesPerSecond
    )

    package static let idleTimeout = ServerSetting<Duration>(
        flag: "idle-timeout",
        variable: "ONCUE_IDLE_TIMEOUT",
        type: .duration(in: Duration.milliseconds(100)...Duration.seconds(3_600)),
        default: limits.idleTimeout,
        summary: "Time an idle keep-alive connection stays open",
        at: \.connections.idleTimeout
    )

    package static let maxConnections = ServerSetting<Int>(
        flag: "max-connections",
        variable: "ONCUE_MAX_CONNECTIONS",
        type: .integer(in: 1...1_000_000, valueName: "count"),
        default: limits.maxConnections,
        summary:
            "Connections open at once; within a tenth of it (at most 64) a new connection closes the one idle longest, and when none is idle more wait in the listen backlog",
        at: \.connections.maxConnections
    )

    package static let maxConnectionsPerAddress = ServerSetting<Int>(
        flag: "max-connections-per-address",
        variable: "ONCUE_MAX_CONNECTIONS_PER_ADDRESS",
        type: .integer(in: 1...1_000_000, valueName: "count"),
        default: limits.maxConnectionsPerAddress,
        summary: "Connections one client address may hold open; more are closed as accepted (trusted proxies exempt)",
        at: \.connections.maxConnectionsPerAddress
    )

    package static let maxPendingHeadsPerAddress = ServerSetting<Int>(
        flag: "max-pending-heads-per-address",
        variable: "ONCUE_MAX_PENDING_HEADS_PER_ADDRESS",
        type: .integer(in: 1...1_000_000, valueName: "count"),
        default: limits.maxPendingHeadsPerAddress,
        summary: "Of those, connections still without a complete first request head",
        beside: maxConnectionsPerAddress,
        at: \.connections.maxPendingHeadsPerAddress
    )

    package static let shutdownTimeout = ServerSetting<Duration>(
        flag: "shutdown-timeout",
        variable: "ONCUE_SHUTDOWN_TIMEOUT",
        type: .duration(in: Duration.zero...Duration.seconds(3_600)),
        default: limits.shutdownTimeout,
        summary: "Time after SIGTERM before open connections are closed",
        at: \.connections.shutdownTimeout
    )

    package static let auditRetention = ServerSetting<Int>(
        flag: "audit-retention-days",
        variable: "ONCUE_AUDIT_RETENTION_DAYS",
        type: .integer(in: 0...36_500, valueName: "days"),
        default: 400,
        summary: "Audit entries older than this are pruned (hourly; the prune is logged as an entry); 0 keeps every entry",
        at: \.auditRetentionDays
    )

    package static let logLevel = ServerSetting<Logger.Level>(
        flag: "log-level",
        variable: "ONCUE_LOG_LEVEL",
        type: .logLevel,
        default: .info,
        summary: "Least level logged",
        at: \.logLevel
    )

    /// Every setting, in the order of `serve --help`; resolution applies them in this order.
    package static let all: [any ServerSettingDescription] = [
        dbRead, storePoll, host, port, adminTokenFile, adminToken, clientJWT, clientJWTIssuer, clientJWTAudience, clientJWTMaxLifetime,
        maxBodyBytes, maxImportBytes, rateLimitRPS, rateLimitBurst, clientIPHeader, trustedProxies, minRadius, closedLookahead, geocoder,
        consoleTiles, consoleTilesAttribution, geocoderRPS, headTimeout, bodyTimeout, uploadTimeout, uploadMinRate, idleTimeout,
        maxConnections, maxConnectionsPerAddress, maxPendingHeadsPerAddress, shutdownTimeout, auditRetention, logLevel,
    ]

    /// README's table: a row holds a setting and those declared beside it (the halves of one thing).
    package static var rows: [[any ServerSettingDescription]] {
        var rows: [[any ServerSettingDescription]] = []
        for setting in all {
            if let row = rows.firstIndex(where: { $0[0].variable == setting.besideVariable }) {
                rows[row].append(setting)
            } else {
                rows.append([setting])
            }
        }
        return rows
    }

    /// The connection settings' defaults are those a library user of `ConnectionLimits` gets.
    private static let limits = ConnectionLimits()
}

extension ServerSettings {
    /// The configuration `oncue serve` runs with: each setting from its flag when given, else from its variable when set
    /// and not empty, else its default. `flags` maps a flag's name (`port`) to its text; a flag that is given replaces its
    /// variable, which is then not read. Values from variables are applied first, then those from flags, each in the
    /// table's order: so a flag wins over any variable, and of two variables the later in the table.
    package static func configuration(
        environment: [String: String],
        flags: [String: String] = [:]
    ) throws(ConfigurationError)
        -> ServerConfiguration
    {
        assert(Set(flags.keys).isSubset(of: all.compactMap(\.flag)), "a flag that is not in the table: \(flags.keys.sorted())")
        var configuration = ServerConfiguration(database: environment["ONCUE_DB"] ?? "")
        for setting in all { setting.applyDefault(to: &configuration) }
        for setting in all where setting.flag.flatMap({ flags[$0] }) == nil {
            if let text = environment[setting.variable], !text.isEmpty { try setting.apply(text, from: setting.variable, to: &configuration) }
        }
        for setting in all {
            if let flag = setting.flag, let option = setting.option, let text = flags[flag] {
                try setting.apply(text, from: option, to: &configuration)
            }
        }
        return configuration
    }

    /// The settings `configuration` holds, one `VARIABLE=value` line each (secrets shown only as set), for
    /// `oncue serve --print-configuration`.
    package static func printed(_ configuration: ServerConfiguration) -> String {
        all.compactMap { setting in setting.shownValue(in: configuration).map { "\(setting.variable)=\($0)" } }.joined(separator: "\n")
    }

    /// What `serve --help` says of the variables after the flags' own help (a paragraph is one line: the help wraps it).
    package static var helpDiscussion: String {
        let variableOnly = all.filter { $0.flag == nil }.map { "  \($0.variable): \($0.summary) (default \($0.defaultText); \($0.bounds))." }
        return """
            Each option may be given instead by the environment variable its help names; a flag on the command line \
            wins, and an empty value means the default. A duration is seconds (1.5) or a number with a unit \
            (500ms, 2m, 1h). Variables without a flag:
            \(variableOnly.joined(separator: "\n"))
            """
    }

    /// README's settings table, one row per entry of `rows`.
    package static var markdownTable: String {
        func cell(_ parts: [String]) -> String { parts.joined(separator: " / ").replacingOccurrences(of: "|", with: "\\|") }
        var lines = ["| flag | environment | default | accepts | sets |", "|---|---|---|---|---|"]
        for row in rows {
            let cells = [
                cell(row.map { $0.option.map { "`\($0)`" } ?? "—" }),
                cell(row.map { "`\($0.variable)`" }),
                cell(row.map(\.defaultText)),
                cell(row.map { "\($0.bounds)" }),
                cell(row.map(\.summary)),
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }
}
