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
            Routes: POST /v1/region-refresh, GET /v1/networks, GET /healthz,
            GET /readyz, GET /metrics, GET /openapi.yaml; with an admin token also
            POST|GET /admin/imports, GET /admin/imports/{id},
            PUT /admin/networks/{id}, POST /admin/networks/{id}/aliases.

            Environment variables (a flag given on the command line wins):
            \(EnvironmentSettings.documented.map { "  \($0.name)\n      \($0.meaning)" }.joined(separator: "\n"))

            SIGTERM or SIGINT stops accepting connections, finishes the requests
            in flight (each response then says Connection: close), closes what is
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
    @Option(help: "A hot standby's postgres:// URL for index builds and read-only routes (ONCUE_DB_READ).") var dbRead: String?
    @Option(help: "Seconds between checks of a PostGIS store's version (ONCUE_STORE_POLL_SECONDS; default 5).") var storePollSeconds: Double?
    @Option(help: "Address to bind (ONCUE_HOST; default 127.0.0.1).") var host: String?
    @Option(help: "TCP port, 0 for any free port (ONCUE_PORT; default 8080).") var port: Int?
    @Option(help: "File whose first line is the admin bearer token (ONCUE_ADMIN_TOKEN_FILE).") var adminTokenFile: String?
    @Option(help: "Largest JSON body in bytes (ONCUE_MAX_BODY_BYTES).") var maxBodyBytes: Int?
    @Option(help: "Largest CSV upload in bytes (ONCUE_MAX_IMPORT_BYTES).") var maxImportBytes: Int?
    @Option(help: "Requests per second per client, 0 disables limiting (ONCUE_RATE_LIMIT_RPS).") var rateLimitRps: Double?
    @Option(help: "Token-bucket size per client (ONCUE_RATE_LIMIT_BURST).") var rateLimitBurst: Double?
    @Option(help: "Header naming the client, e.g. X-Forwarded-For (ONCUE_CLIENT_IP_HEADER).") var clientIpHeader: String?
    @Option(help: "Log level (ONCUE_LOG_LEVEL; default info).") var logLevel: String?
    @Option(help: "Geocoder for admin imports that ask for geocoding (ONCUE_GEOCODER).") var geocoder: String?
    @Option(help: "Geocoder requests per second (ONCUE_GEOCODER_RPS; default 1).") var geocoderRps: Double?
    @Option(help: "Seconds to receive a request head before 408 (ONCUE_HEAD_TIMEOUT; default 10).") var headTimeout: String?
    @Option(help: "Seconds to receive a request body before 408 (ONCUE_BODY_TIMEOUT; default 30).") var bodyTimeout: String?
    @Option(help: "Seconds to receive a POST /admin/imports body (ONCUE_UPLOAD_TIMEOUT; default 900).") var uploadTimeout: String?
    @Option(help: "Seconds an idle keep-alive connection stays open (ONCUE_IDLE_TIMEOUT; default 60).") var idleTimeout: String?
    @Option(help: "Connections open at once (ONCUE_MAX_CONNECTIONS; default 1000).") var maxConnections: Int?
    @Option(help: "Seconds after SIGTERM before open connections are closed (ONCUE_SHUTDOWN_TIMEOUT; default 15).") var shutdownTimeout: String?

    func run() async throws {
        let configuration: ServerConfiguration
        do {
            configuration = try resolvedConfiguration(environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError(error.description)
        }
        // Refuse a missing or foreign store before binding the port, with the store's own message.
        try await withStore(configuration.database, readOnly: true) { _ in }

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
        let built = try ServerBuilder.build(configuration: configuration, logger: logger) { port in
            announce.notice("listening", metadata: ["address": "\(host):\(port)"])
        }
        try await built.runUntilSignalled()
    }

    func resolvedConfiguration(environment: [String: String]) throws(ConfigurationError) -> ServerConfiguration {
        var configuration = try EnvironmentSettings.configuration(from: environment)
        if let db { configuration.database = db }
        if let dbRead { configuration.readDatabase = dbRead.isEmpty ? nil : dbRead }
        if let storePollSeconds {
            guard storePollSeconds >= 0.1, storePollSeconds <= 3_600 else { throw ConfigurationError("--store-poll-seconds must be in [0.1, 3600]") }
            configuration.storePollSeconds = storePollSeconds
        }
        // A bad URL is refused here, without repeating its password.
        if let read = configuration.readDatabase, !PostgresURL.isURL(read) { throw ConfigurationError("--db-read must be a postgres:// URL") }
        do throws(StoreError) {
            _ = try StoreAddress(configuration.database)
            if let read = configuration.readDatabase { _ = try StoreAddress(read) }
        } catch {
            throw ConfigurationError(error.description)
        }
        guard !configuration.database.isEmpty else { throw ConfigurationError("give the store with --db or ONCUE_DB") }
        if let host { configuration.host = host }
        if let port {
            guard (0...65_535).contains(port) else { throw ConfigurationError("--port must be in 0...65535") }
            configuration.port = port
        }
        if let adminTokenFile { configuration.adminToken = try EnvironmentSettings.adminToken(token: nil, file: adminTokenFile) }
        if let maxBodyBytes {
            guard maxBodyBytes >= 256 else { throw ConfigurationError("--max-body-bytes must be at least 256") }
            configuration.maxBodyBytes = maxBodyBytes
        }
        if let maxImportBytes {
            guard maxImportBytes >= 1 else { throw ConfigurationError("--max-import-bytes must be at least 1") }
            configuration.maxImportBytes = maxImportBytes
        }
        if rateLimitRps != nil || rateLimitBurst != nil {
            configuration.rateLimit = try EnvironmentSettings.rateLimit(rps: rateLimitRps.map { String($0) }, burst: rateLimitBurst.map { String($0) },
                                                                       current: configuration.rateLimit)
        }
        if let clientIpHeader { configuration.clientIPHeader = clientIpHeader.isEmpty ? nil : clientIpHeader }
        if let logLevel { configuration.logLevel = try EnvironmentSettings.logLevel(logLevel, source: "--log-level") }
        if let geocoder { configuration.geocoderURL = try EnvironmentSettings.geocoderURL(geocoder, source: "--geocoder") }
        if let geocoderRps {
            configuration.geocoderRequestsPerSecond = try EnvironmentSettings.geocoderRate(String(geocoderRps), source: "--geocoder-rps")
        }
        let timeouts = [headTimeout, bodyTimeout, uploadTimeout, idleTimeout, shutdownTimeout]
        for (setting, text) in zip(EnvironmentSettings.connectionSettings, timeouts) {
            if let text { configuration.connections[keyPath: setting.keyPath] = try EnvironmentSettings.seconds(text, setting, source: setting.flag) }
        }
        if let maxConnections {
            guard EnvironmentSettings.maxConnectionsRange.contains(maxConnections) else {
                throw ConfigurationError("--max-connections must be in \(EnvironmentSettings.maxConnectionsRange)")
            }
            configuration.connections.maxConnections = maxConnections
        }
        return configuration
    }
}
