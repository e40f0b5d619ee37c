import ArgumentParser
import ChainImport
import CommandLineOutput
import Foundation
import Geo
import LocationStore
import StoreOpening

struct DB: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Create and inspect location stores (SQLite + SpatiaLite files, or PostgreSQL + PostGIS databases).",
        subcommands: [Init.self, Stats.self, Check.self]
    )

    struct Init: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an empty store.",
            discussion: """
                A file is a SpatiaLite database: the spatialite CLI, ogr2ogr and QGIS open its \
                `locations` table as a point layer (SRID 4326). A postgres:// URL names an existing, empty \
                database: the schema goes in it (with CREATE EXTENSION postgis when it is missing and allowed).

                Example:
                  oncue db init --db stores.sqlite
                  oncue db init --db postgres://oncue@127.0.0.1:5432/oncue
                """
        )
        @OptionGroup var store: StoreOptions
        @Argument(parsing: .allUnrecognized, help: .hidden) var deprecatedFile: [String] = []

        mutating func validate() throws { try store.adoptPositional(deprecatedFile, command: "init", of: Self.self) }

        func run() async throws {
            let address = try store.address()
            let created = try await address.create()
            let version = try await created.stats().schemaVersion
            await created.close()
            print("created \(address) (schema version \(version))")
        }
    }

    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Counts per network, bounding box and file size of a store.",
            discussion: """
                Example:
                  oncue db stats --db stores.sqlite
                  oncue db stats --db postgres://oncue@127.0.0.1:5432/oncue --format json
                """
        )
        @OptionGroup var store: StoreOptions
        @Argument(parsing: .allUnrecognized, help: .hidden) var deprecatedFile: [String] = []
        @OptionGroup var output: OutputOptions

        struct Output: Encodable {
            var file: String
            var file_size_bytes: Int64?
            var schema_version: Int
            var locations: Int
            var imports: Int
            var networks: [String: Int]
            var bounds: [String: Double]?
        }

        mutating func validate() throws { try store.adoptPositional(deprecatedFile, command: "stats", of: Self.self) }

        func run() async throws {
            let address = try store.address()
            let stats = try await store.withStore(readOnly: true) { try await $0.stats() }
            var onDisk = stats.fileSizeBytes
            if case .file(let path) = address, let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64 { onDisk = size }
            let file = address.description
            if output.isJSON {
                let bounds = stats.bounds.map {
                    ["min_lat": $0.minLatitude, "max_lat": $0.maxLatitude, "min_lon": $0.minLongitude, "max_lon": $0.maxLongitude]
                }
                let output = Output(
                    file: file, file_size_bytes: onDisk, schema_version: stats.schemaVersion,
                    locations: stats.locationCount, imports: stats.importCount,
                    networks: Dictionary(uniqueKeysWithValues: stats.networkCounts.map { ($0.networkId, $0.count) }),
                    bounds: bounds)
                print(try jsonString(output))
                return
            }
            print("store:     \(file)")
            print("size:      \(formatCount(Int(onDisk ?? 0))) bytes")
            print("schema:    version \(stats.schemaVersion)")
            print("locations: \(formatCount(stats.locationCount)) in \(stats.networkCounts.count) networks; \(stats.importCount) imports")
            if let b = stats.bounds {
                print("bounds:    lat \(b.minLatitude) … \(b.maxLatitude), lon \(b.minLongitude) … \(b.maxLongitude)")
            }
            if !stats.networkCounts.isEmpty {
                print("")
                print(textTable(["network", "locations"], stats.networkCounts.map { [$0.networkId, formatCount($0.count)] }), terminator: "")
            }
        }
    }

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a store: SQLite's integrity_check and SpatiaLite's checks, or PostGIS's indexes, geometries and amcheck.",
            discussion: """
                Example:
                  oncue db check --db stores.sqlite
                  oncue db check --db postgres://oncue@127.0.0.1:5432/oncue
                """
        )
        @OptionGroup var store: StoreOptions
        @Argument(parsing: .allUnrecognized, help: .hidden) var deprecatedFile: [String] = []

        mutating func validate() throws { try store.adoptPositional(deprecatedFile, command: "check", of: Self.self) }

        func run() async throws {
            let (problems, checks) = try await store.withStore { (try await $0.verify(), $0.consistencyChecks) }
            if problems.isEmpty {
                print("ok: " + checks.joined(separator: ", "))
            } else {
                for p in problems { FileHandleOutput.standardError.write("problem: \(p.forMessage(limit: 500))\n") }
                throw ExitCode(1)
            }
        }
    }
}
