import ArgumentParser
import Foundation
import LocationStore
import Logging
import RefreshServer

/// `oncue serve`: the HTTP service. Flags win over environment variables, which win over defaults.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the HTTP region-refresh service (public API, admin API, health, metrics).",
        discussion: """
            \(RouteTable.helpSummary)

            \(ServerSettings.helpDiscussion)

            SIGTERM or SIGINT stops accepting connections, finishes the requests \
            in flight (each response then says Connection: close), closes what is \
            still open after --shutdown-timeout, and exits 0.

            Example:
              export ONCUE_ADMIN_TOKEN_FILE=/etc/oncue/admin-token
              oncue serve --db stores.sqlite --port 8080
              curl -s localhost:8080/v1/region-refresh \\
                -H 'Content-Type: application/json' \\
                -d '{"lat": 37.7749, "lon": -122.4194, "user_networks": ["costco"]}'
            """
    )

    @Option(help: "The store: a SQLite file or a postgres:// URL (ONCUE_DB).") var db: String?
    // Each setting's flag, help and parser come from its entry in ServerSettings; the flags stay text here so that a
    // flag and its variable are read by the same parser (and a refused URL is never echoed with its password). A value
    // is whatever follows its flag, `-1` included: ServerSettings then says what range it takes, where the argument
    // parser would have called `-1` an option and the flag's value missing.
    @Option(name: .setting(ServerSettings.dbRead), parsing: .unconditional, help: .setting(ServerSettings.dbRead)) var dbRead: String?
    @Option(name: .setting(ServerSettings.storePoll), parsing: .unconditional, help: .setting(ServerSettings.storePoll)) var storePoll: String?
    @Option(name: .setting(ServerSettings.host), parsing: .unconditional, help: .setting(ServerSettings.host)) var host: String?
    @Option(name: .setting(ServerSettings.port), parsing: .unconditional, help: .setting(ServerSettings.port)) var port: String?
    @Option(name: .setting(ServerSettings.adminTokenFile), parsing: .unconditional, help: .setting(ServerSettings.adminTokenFile)) var adminTokenFile:
        String?
    @Option(name: .setting(ServerSettings.clientJWT), parsing: .unconditional, help: .setting(ServerSettings.clientJWT)) var clientJWT: String?
    @Option(name: .setting(ServerSettings.clientJWTIssuer), parsing: .unconditional, help: .setting(ServerSettings.clientJWTIssuer))
    var clientJWTIssuer: String?
    @Option(name: .setting(ServerSettings.clientJWTAudience), parsing: .unconditional, help: .setting(ServerSettings.clientJWTAudience))
    var clientJWTAudience: String?
    @Option(name: .setting(ServerSettings.clientJWTMaxLifetime), parsing: .unconditional, help: .setting(ServerSettings.clientJWTMaxLifetime))
    var clientJWTMaxLifetime: String?
    @Option(name: .setting(ServerSettings.maxBodyBytes), parsing: .unconditional, help: .setting(ServerSettings.maxBodyBytes)) var maxBodyBytes:
        String?
    @Option(name: .setting(ServerSettings.maxImportBytes), parsing: .unconditional, help: .setting(ServerSettings.maxImportBytes)) var maxImportBytes:
        String?
    @Option(name: .setting(ServerSettings.rateLimitRPS), parsing: .unconditional, help: .setting(ServerSettings.rateLimitRPS)) var rateLimitRPS:
        String?
    @Option(name: .setting(ServerSettings.rateLimitBurst), parsing: .unconditional, help: .setting(ServerSettings.rateLimitBurst)) var rateLimitBurst:
        String?
    @Option(name: .setting(ServerSettings.clientIPHeader), parsing: .unconditional, help: .setting(ServerSettings.clientIPHeader)) var clientIPHeader:
        String?
    @Option(name: .setting(ServerSettings.trustedProxies), parsing: .unconditionalSingleValue, help: .setting(ServerSettings.trustedProxies))
    var trustedProxy: [String] = []
    @Option(name: .setting(ServerSettings.minRadius), parsing: .unconditional, help: .setting(ServerSettings.minRadius)) var minRadiusM: String?
    @Option(name: .setting(ServerSettings.closedLookahead), parsing: .unconditional, help: .setting(ServerSettings.closedLookahead))
    var closedLookaheadMinutes: String?
    @Option(name: .setting(ServerSettings.geocoder), parsing: .unconditional, help: .setting(ServerSettings.geocoder)) var geocoder: String?
    @Option(name: .setting(ServerSettings.consoleTiles), parsing: .unconditional, help: .setting(ServerSettings.consoleTiles)) var consoleTiles:
        String?
    @Option(name: .setting(ServerSettings.consoleTilesAttribution), parsing: .unconditional, help: .setting(ServerSettings.consoleTilesAttribution))
    var consoleTilesAttribution: String?
    @Option(name: .setting(ServerSettings.geocoderRPS), parsing: .unconditional, help: .setting(ServerSettings.geocoderRPS)) var geocoderRPS: String?
    @Option(name: .setting(ServerSettings.headTimeout), parsing: .unconditional, help: .setting(ServerSettings.headTimeout)) var headTimeout: String?
    @Option(name: .setting(ServerSettings.bodyTimeout), parsing: .unconditional, help: .setting(ServerSettings.bodyTimeout)) var bodyTimeout: String?
    @Option(name: .setting(ServerSettings.uploadTimeout), parsing: .unconditional, help: .setting(ServerSettings.uploadTimeout)) var uploadTimeout:
        String?
    @Option(name: .setting(ServerSettings.uploadMinRate), parsing: .unconditional, help: .setting(ServerSettings.uploadMinRate))
    var uploadMinBytesPerSecond: String?
    @Option(name: .setting(ServerSettings.idleTimeout), parsing: .unconditional, help: .setting(ServerSettings.idleTimeout)) var idleTimeout: String?
    @Option(name: .setting(ServerSettings.maxConnections), parsing: .unconditional, help: .setting(ServerSettings.maxConnections)) var maxConnections:
        String?
    @Option(name: .setting(ServerSettings.maxConnectionsPerAddress), parsing: .unconditional, help: .setting(ServerSettings.maxConnectionsPerAddress))
    var maxConnectionsPerAddress: String?
    @Option(
        name: .setting(ServerSettings.maxPendingHeadsPerAddress), parsing: .unconditional, help: .setting(ServerSettings.maxPendingHeadsPerAddress))
    var maxPendingHeadsPerAddress: String?
    @Option(name: .setting(ServerSettings.shutdownTimeout), parsing: .unconditional, help: .setting(ServerSettings.shutdownTimeout))
    var shutdownTimeout: String?
    @Option(name: .setting(ServerSettings.auditRetention), parsing: .unconditional, help: .setting(ServerSettings.auditRetention))
    var auditRetentionDays: String?
    @Option(name: .setting(ServerSettings.logLevel), parsing: .unconditional, help: .setting(ServerSettings.logLevel)) var logLevel: String?
    @Flag(help: "Print the settings as resolved (flags, then variables, then defaults) and exit without opening the store.")
    var printConfiguration = false

    /// The settings given as flags, by flag name, for ServerSettings to parse as it parses their variables.
    var settingFlags: [String: String] {
        let given: [(any ServerSettingDescription, String?)] = [
            (ServerSettings.dbRead, dbRead), (ServerSettings.storePoll, storePoll), (ServerSettings.host, host),
            (ServerSettings.port, port), (ServerSettings.adminTokenFile, adminTokenFile),
            (ServerSettings.clientJWT, clientJWT), (ServerSettings.clientJWTIssuer, clientJWTIssuer),
            (ServerSettings.clientJWTAudience, clientJWTAudience), (ServerSettings.clientJWTMaxLifetime, clientJWTMaxLifetime),
            (ServerSettings.maxBodyBytes, maxBodyBytes),
            (ServerSettings.maxImportBytes, maxImportBytes), (ServerSettings.rateLimitRPS, rateLimitRPS),
            (ServerSettings.rateLimitBurst, rateLimitBurst), (ServerSettings.clientIPHeader, clientIPHeader),
            (ServerSettings.trustedProxies, trustedProxy.isEmpty ? nil : trustedProxy.joined(separator: ",")),
            (ServerSettings.minRadius, minRadiusM), (ServerSettings.closedLookahead, closedLookaheadMinutes),
            (ServerSettings.geocoder, geocoder), (ServerSettings.geocoderRPS, geocoderRPS),
            (ServerSettings.consoleTiles, consoleTiles), (ServerSettings.consoleTilesAttribution, consoleTilesAttribution),
            (ServerSettings.headTimeout, headTimeout),
            (ServerSettings.bodyTimeout, bodyTimeout), (ServerSettings.uploadTimeout, uploadTimeout),
            (ServerSettings.uploadMinRate, uploadMinBytesPerSecond),
            (ServerSettings.idleTimeout, idleTimeout), (ServerSettings.maxConnections, maxConnections),
            (ServerSettings.maxConnectionsPerAddress, maxConnectionsPerAddress),
            (ServerSettings.maxPendingHeadsPerAddress, maxPendingHeadsPerAddress),
            (ServerSettings.shutdownTimeout, shutdownTimeout), (ServerSettings.auditRetention, auditRetentionDays),
            (ServerSettings.logLevel, logLevel),
        ]
        var flags: [String: String] = [:]
        for (setting, text) in given { if let flag = setting.flag, let text { flags[flag] = text } }
        return flags
    }

    func run() async throws {
        let configuration = try checkedConfiguration(environment: ProcessInfo.processInfo.environment)
        if printConfiguration {
            print(ServerSettings.printed(configuration))
            return
        }
        // A busy or forbidden address is said at once, in one line, before anything loads.
        if let problem = PortProbe.problem(host: configuration.host, port: configuration.port) {
            throw ServeError(description: problem)
        }
        // Refuse a missing or foreign store before binding the port, with the store's own message. Opened for writing
        // (the server imports into it), which also brings a store of an earlier schema up to date, as any writing
        // command does; a store this process may only read is checked read-only.
        var store = StoreOptions()
        store.db = configuration.database
        do {
            try await store.withStore { _ in }
        } catch StoreError.readOnly {
            try await store.withStore(readOnly: true) { _ in }
        }

        let level = configuration.logLevel
        LoggingSystem.bootstrap { label in
            var handler = DeferredMetadataLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: "oncue.serve")
        logger.logLevel = level
        let announce = logger
        let host = configuration.host
        let built = try await ServerBuilder.build(configuration: configuration, logger: logger) { port in
            announce.notice("listening", metadata: ["address": "\(host):\(port)"])
        }
        try await built.runUntilSignalled()
    }

    /// The configuration from the flags and `environment`; a refused setting is a usage error (exit 2).
    func checkedConfiguration(environment: [String: String]) throws(ValidationError) -> ServerConfiguration {
        do {
            return try resolvedConfiguration(environment: environment)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func resolvedConfiguration(environment: [String: String]) throws(ConfigurationError) -> ServerConfiguration {
        var configuration = try ServerSettings.configuration(environment: environment, flags: settingFlags)
        if let db { configuration.database = db }
        // A bad URL is refused here, without repeating its password.
        do throws(StoreError) {
            _ = try StoreAddress(configuration.database)
            if let read = configuration.readDatabase { _ = try StoreAddress(read) }
        } catch {
            throw ConfigurationError(error.description)
        }
        guard !configuration.database.isEmpty else { throw ConfigurationError("give the store with --db or ONCUE_DB") }
        return configuration
    }
}

extension NameSpecification {
    /// The long flag a server setting declares.
    static func setting(_ setting: any ServerSettingDescription) -> NameSpecification {
        guard let flag = setting.flag else { preconditionFailure("\(setting.variable) has no flag") }
        return .customLong(flag)
    }
}

extension ArgumentHelp {
    /// A server setting's help (with its variable, default and bounds) and the name of its value.
    static func setting(_ setting: any ServerSettingDescription) -> ArgumentHelp {
        ArgumentHelp(setting.help, valueName: setting.valueName)
    }
}

/// A reason `oncue serve` cannot start, printed as one line (exit 1).
struct ServeError: Error, CustomStringConvertible {
    var description: String
}
