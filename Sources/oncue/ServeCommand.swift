import ArgumentParser
import ChainImport
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
    // Each setting's flag, from its entry in ServerSettings, which parses the text as it parses the variable's.
    @OptionGroup var settings: DeclaredFlags<ServeFlags>
    @Flag(help: "Print the settings as resolved (flags, then variables, then defaults) and exit without opening the store.")
    var printConfiguration = false

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
        var configuration = try ServerSettings.configuration(environment: environment, flags: settings.byFlag)
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

/// The flags of `oncue serve`: one for each server setting that has one.
enum ServeFlags: FlagTable {
    static var options: [any DeclaredOption] { ServerSettings.all }
}

/// A reason `oncue serve` cannot start, printed as one line (exit 1).
struct ServeError: Error, CustomStringConvertible {
    var description: String
}
