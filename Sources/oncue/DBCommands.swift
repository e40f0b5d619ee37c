import ArgumentParser
import Foundation
import Geo
import LocationStore

struct DB: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Create and inspect location stores (SQLite + SpatiaLite files).",
        subcommands: [Init.self, Stats.self, Check.self]
    )

    struct Init: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an empty store.",
            discussion: """
                The file is a SpatiaLite database: the spatialite CLI, ogr2ogr and QGIS open its
                `locations` table as a point layer (SRID 4326).

                Example:
                  oncue db init stores.sqlite
                """
        )
        @Argument(help: "Path of the new store file.") var file: String

        func run() async throws {
            _ = try SQLiteLocationStore.create(path: file)
            print("created \(file) (schema version \(SQLiteSchemaInfo.currentVersion))")
        }
    }

    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Counts per network, bounding box and file size of a store.",
            discussion: """
                Example:
                  oncue db stats stores.sqlite
                  oncue db stats stores.sqlite --json
                """
        )
        @Argument(help: "Path of the store file.") var file: String
        @Flag(help: "Print JSON instead of a table.") var json = false

        struct Output: Encodable {
            var file: String
            var file_size_bytes: Int64?
            var schema_version: Int
            var locations: Int
            var imports: Int
            var networks: [String: Int]
            var bounds: [String: Double]?
        }

        func run() async throws {
            let store = try openStore(file, readOnly: true)
            let stats = try store.stats()
            let onDisk = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int64) ?? stats.fileSizeBytes
            if json {
                let bounds = stats.bounds.map {
                    ["min_lat": $0.minLatitude, "max_lat": $0.maxLatitude, "min_lon": $0.minLongitude, "max_lon": $0.maxLongitude]
                }
                let output = Output(file: file, file_size_bytes: onDisk, schema_version: stats.schemaVersion,
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
            abstract: "Run PRAGMA integrity_check, check that the location indexes exist, and run SpatiaLite's metadata and spatial-index checks.",
            discussion: """
                Example:
                  oncue db check stores.sqlite
                """
        )
        @Argument(help: "Path of the store file.") var file: String

        func run() async throws {
            let store = try openStore(file)
            let problems = try store.verify()
            if problems.isEmpty {
                print("ok: integrity_check, CheckSpatialMetaData, CheckSpatialIndex")
            } else {
                for p in problems { FileHandleOutput.standardError.write("problem: \(p)\n") }
                throw ExitCode(1)
            }
        }
    }
}
