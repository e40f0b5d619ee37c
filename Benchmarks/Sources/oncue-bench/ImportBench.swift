import ArgumentParser
import ChainImport
import CommandLineOutput
import Foundation
import LocationStore
import PostGISStore
import SyntheticData

/// `oncue-bench import`: a seeded chain CSV imported by `oncue import` (first load, then a re-import
/// where every row is unchanged) and loaded by ogr2ogr into SpatiaLite, each in its own process
/// under `/usr/bin/time -v`, so wall time and peak memory are measured the same way for all three.
struct BenchImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import throughput and peak memory against ogr2ogr (-f SQLite -dsco SPATIALITE=YES, or -f PostgreSQL with --db).",
        discussion: """
            Build with -c release. The CSV is deterministic (SplitMix64, --seed); it is written once to
            --dir and reused. Peak memory should not grow with --rows (the import streams); compare
            e.g. --rows 100000 with --rows 1000000.

            With --db postgres://…/DB the same runs go into PostgreSQL + PostGIS: fresh databases DB_oncue and
            DB_ogr2ogr are created on that server (dropped first if they exist), oncue imports into the first and
            ogr2ogr -f PostgreSQL (COPY, GiST index) loads the second.

            Example:
              swift build -c release --product oncue && swift build -c release --package-path Benchmarks
              Benchmarks/.build/release/oncue-bench import --rows 1000000 --dir /tmp/oncue-bench
              Benchmarks/.build/release/oncue-bench import --rows 1000000 --db postgres://oncue@127.0.0.1:15433/oncue
            The same by hand:
              /usr/bin/time -v oncue import chain.csv --db s.sqlite --network-column brand --progress never
              /usr/bin/time -v ogr2ogr -f SQLite -dsco SPATIALITE=YES o.sqlite chain.csv -nln chain \\
                  -oo X_POSSIBLE_NAMES=longitude -oo Y_POSSIBLE_NAMES=latitude -oo KEEP_GEOM_COLUMNS=NO -a_srs EPSG:4326 -gt 100000
            """
    )

    @Option(help: "Rows of the generated CSV.") var rows = 1_000_000
    @Option(help: "Seed of the generated CSV.") var seed: UInt64 = 42
    @Option(help: "The oncue executable whose imports are timed.") var oncue = ".build/release/oncue"
    @Option(help: "Working directory (the CSV is kept there for reuse).") var dir = NSTemporaryDirectory() + "oncue-bench-import"
    @Flag(help: "Skip the ogr2ogr comparison.") var skipOgr2ogr = false
    @Option(help: "A postgres:// URL: benchmark the PostGIS store (and ogr2ogr -f PostgreSQL) on that server.") var db: String?
    @Flag(help: "Print JSON.") var json = false

    struct Run: Encodable {
        var name: String
        var seconds: Double
        var rows_per_second: Double
        var peak_rss_mb: Double
        var exit_status: Int32
    }

    struct Output: Encodable {
        var rows: Int
        var csv_bytes: Int64
        var csv: String
        var runs: [Run]
    }

    func run() async throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let csv = (dir as NSString).appendingPathComponent("chain-\(rows)-\(seed).csv")
        if !FileManager.default.fileExists(atPath: csv) {
            FileHandleOutput.standardError.write("generating \(formatCount(rows)) rows → \(csv)\n")
            try SyntheticChainCSV(rows: rows, seed: seed).write(to: csv)
        }
        let size = (try FileManager.default.attributesOfItem(atPath: csv)[.size] as? NSNumber)?.int64Value ?? 0
        let me = try ownExecutable()
        var runs: [Run] = []
        if let db {
            runs = try await postgres(db, csv: csv, me: me)
        } else {
            runs = try sqlite(csv: csv, me: me)
        }
        if json {
            print(try jsonString(Output(rows: rows, csv_bytes: size, csv: csv, runs: runs)))
            return
        }
        print("\(formatCount(rows)) rows, \(formatCount(Int(size))) bytes: \(csv)")
        print(
            textTable(
                ["run", "seconds", "rows/s", "peak RSS MB", "exit"],
                runs.map {
                    [
                        $0.name, String(format: "%.2f", $0.seconds), formatCount(Int($0.rows_per_second)), String(format: "%.1f", $0.peak_rss_mb),
                        String($0.exit_status),
                    ]
                }), terminator: "")
    }

    private func postgres(_ text: String, csv: String, me: String) async throws -> [Run] {
        let server: PostgresURL
        do { server = try PostgresURL(text) } catch { throw ValidationError(error.description) }
        let ours = server.with(database: server.database + "_oncue")
        let theirs = server.with(database: server.database + "_ogr2ogr")
        for name in [ours.database, theirs.database] {
            try await PostGISLocationStore.execute(on: server, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            try await PostGISLocationStore.execute(on: server, "CREATE DATABASE \(name)")
        }
        try await PostGISLocationStore.execute(on: theirs, "CREATE EXTENSION postgis")
        var runs: [Run] = []
        _ = try Self.timed([me, "db", "init", ours.description])
        let importArgs = [me, "import", csv, "--db", ours.description, "--network-column", "brand", "--progress", "never"]
        runs.append(try Self.timed(importArgs).named("oncue import → PostGIS (first load)", rows: rows))
        runs.append(try Self.timed(importArgs).named("oncue import → PostGIS (re-import, unchanged)", rows: rows))
        if !skipOgr2ogr {
            var connection = "PG:host=\(theirs.host) port=\(theirs.port) dbname=\(theirs.database) user=\(theirs.user)"
            if let password = theirs.password { connection += " password=\(password)" }
            let args = [
                "ogr2ogr", "-f", "PostgreSQL", connection, csv, "-nln", "chain", "-oo", "X_POSSIBLE_NAMES=longitude",
                "-oo", "Y_POSSIBLE_NAMES=latitude", "-oo", "KEEP_GEOM_COLUMNS=NO", "-a_srs", "EPSG:4326", "-lco", "GEOMETRY_NAME=geom",
                "-lco", "SPATIAL_INDEX=GIST", "--config", "PG_USE_COPY", "YES", "-gt", "100000",
            ]
            runs.append(try Self.timed(args).named("ogr2ogr -f PostgreSQL (geometry, COPY, GiST)", rows: rows))
            // A GiST on a geography column, as the OnCue store had up to schema 4 (PostGIS schema 5 is geometry).
            try await PostGISLocationStore.execute(on: server, "DROP DATABASE IF EXISTS \(theirs.database) WITH (FORCE)")
            try await PostGISLocationStore.execute(on: server, "CREATE DATABASE \(theirs.database)")
            try await PostGISLocationStore.execute(on: theirs, "CREATE EXTENSION postgis")
            let geography = args + ["-lco", "GEOM_TYPE=geography"]
            runs.append(try Self.timed(geography).named("ogr2ogr -f PostgreSQL (geography, COPY, GiST)", rows: rows))
        }
        return runs
    }

    private func sqlite(csv: String, me: String) throws -> [Run] {
        let store = (dir as NSString).appendingPathComponent("bench.sqlite")
        let ogr = (dir as NSString).appendingPathComponent("ogr2ogr.sqlite")
        for path in [store, ogr] { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var runs: [Run] = []
        _ = try Self.timed([me, "db", "init", store])
        let importArgs = [me, "import", csv, "--db", store, "--network-column", "brand", "--progress", "never"]
        runs.append(try Self.timed(importArgs).named("oncue import (first load)", rows: rows))
        runs.append(try Self.timed(importArgs).named("oncue import (re-import, unchanged)", rows: rows))
        // The same rows as GeoJSON features (RFC 8142), into a store of their own.
        let seq = (dir as NSString).appendingPathComponent("chain-\(rows)-\(seed).geojsonseq")
        if !FileManager.default.fileExists(atPath: seq) {
            var generator = SyntheticChainCSV(rows: rows, seed: seed)
            generator.format = .geojsonseq
            try generator.write(to: seq)
        }
        let seqStore = (dir as NSString).appendingPathComponent("bench-geojsonseq.sqlite")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: seqStore + suffix) }
        _ = try Self.timed([me, "db", "init", seqStore])
        let seqArgs = [me, "import", seq, "--db", seqStore, "--network-column", "brand", "--progress", "never"]
        runs.append(try Self.timed(seqArgs).named("oncue import GeoJSONSeq (first load)", rows: rows))
        if !skipOgr2ogr {
            let args = [
                "ogr2ogr", "-f", "SQLite", "-dsco", "SPATIALITE=YES", ogr, csv, "-nln", "chain",
                "-oo", "X_POSSIBLE_NAMES=longitude", "-oo", "Y_POSSIBLE_NAMES=latitude", "-oo", "KEEP_GEOM_COLUMNS=NO",
                "-a_srs", "EPSG:4326", "-gt", "100000",
            ]
            runs.append(try Self.timed(args).named("ogr2ogr -f SQLite -dsco SPATIALITE=YES", rows: rows))
        }
        return runs
    }

    private func ownExecutable() throws -> String {
        guard FileManager.default.isExecutableFile(atPath: oncue) else {
            throw ValidationError("no oncue executable at \(oncue): build it with `swift build -c release --product oncue`, or pass --oncue")
        }
        return oncue
    }

    /// Runs a command under `/usr/bin/time -v` and reads its wall time and maximum resident set size.
    static func timed(_ command: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-v"] + command
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        func field(_ name: String) -> String? {
            text.split(separator: "\n").first { $0.contains(name) }.flatMap { $0.split(separator: ": ").last.map(String.init) }
        }
        var seconds = 0.0
        if let wall = field("Elapsed (wall clock) time") {
            for part in wall.split(separator: ":") { seconds = seconds * 60 + (Double(part) ?? 0) }
        }
        let kb = Double(field("Maximum resident set size") ?? "") ?? 0
        if process.terminationStatus != 0 {
            FileHandleOutput.standardError.write("\(command.joined(separator: " ")) failed:\n\(text.suffix(2000))\n")
        }
        return Run(
            name: command.joined(separator: " "), seconds: seconds, rows_per_second: 0, peak_rss_mb: kb / 1024,
            exit_status: process.terminationStatus)
    }
}

extension BenchImport.Run {
    func named(_ name: String, rows: Int) -> BenchImport.Run {
        var r = self
        r.name = name
        r.rows_per_second = seconds > 0 ? Double(rows) / seconds : 0
        return r
    }
}
