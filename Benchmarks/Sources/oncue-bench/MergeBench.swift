import ArgumentParser
import CommandLineOutput
import Foundation
import Geo
import LocationStore
import PostGISStore

/// `oncue-bench merge`: `oncue networks merge` on a store holding other networks too, timed beside the `oncue import`
/// that loaded the merged network's rows in the same run (the baseline: a merge should cost what it moves, not what
/// the store holds). Both run as their own processes under `/usr/bin/time -v`, as a user runs them.
struct BenchMerge: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Network merge time against the import of the same rows, on SQLite or (with a postgres:// --db) PostGIS.",
        discussion: """
            Build with -c release. Loads --others locations in 50 unrelated networks, --into locations of
            network `into` and --from locations of network `from` (one in ten of them 3 m from an `into`
            location, one in seven with an `into` location's id), each by an in-process import timed on its own;
            then `oncue networks merge from into`, and last `oncue networks delete into` (every row the merge left
            in `into`).

            Examples:
              swift build -c release --package-path Benchmarks --product oncue
              swift build -c release --package-path Benchmarks
              Benchmarks/.build/release/oncue-bench merge --oncue Benchmarks/.build/release/oncue --db /tmp/merge.sqlite \\
                  --from 25000 --into 25000 --others 1000000
              Benchmarks/.build/release/oncue-bench merge --oncue Benchmarks/.build/release/oncue \\
                  --db postgres://oncue@127.0.0.1:15433/oncue --from 1000000
            """
    )
    @Option(help: "A new SQLite file (replaced) or a postgres:// URL (a fresh database DB_merge on that server).") var db: String
    @Option(help: "Locations of the network merged away.") var from = 25_000
    @Option(help: "Locations of the network merged into.") var into = 25_000
    @Option(help: "Locations of other networks in the store.") var others = 0
    @Option(help: "The oncue executable whose import and merge are timed.") var oncue = ".build/release/oncue"
    @Option(help: "Working directory for the generated CSVs.") var dir = NSTemporaryDirectory() + "oncue-bench-merge"
    @Flag(help: "Print JSON.") var json = false

    struct Figures: Encodable {
        let store: String
        let from: Int
        let into: Int
        let others: Int
        let import_from_seconds: Double
        let merge_seconds: Double
        let merge_peak_rss_mb: Double
        let merge_over_import: Double
        let delete_seconds: Double
        let deleted: Int
    }

    func run() async throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        guard FileManager.default.isExecutableFile(atPath: oncue) else {
            throw ValidationError("no oncue executable at \(oncue): build it with `swift build -c release --product oncue`, or pass --oncue")
        }
        let address = try await freshStore()
        try check(BenchImport.timed([oncue, "db", "init", address.description]))
        let others = try write("others", rows: self.others) { i in ("o\(i)", "Other \(i % 50)", Self.spot(i, salt: 1)) }
        let intoRows = try write("into", rows: into) { i in ("i\(i)", "Into", Self.spot(i, salt: 2)) }
        let fromRows = try write("from", rows: from) { i in
            let id = i % 7 == 3 && i < into ? "i\(i)" : "f\(i)"
            // One in ten stands 3 m north of an `into` location: a near-duplicate the merge drops.
            let point = i % 10 == 0 && i < into ? Self.spot(i, salt: 2).offsetNorth(3) : Self.spot(i, salt: 3)
            return (id, "From", point)
        }
        if self.others > 0 { _ = try load(address, others) }
        _ = try load(address, intoRows)
        let imported = try load(address, fromRows)
        let merged = try check(BenchImport.timed([oncue, "networks", "merge", "from", "into", "--db", address.description]))
        // The rows `from` had at i < into with i % 10 == 0 were dropped as near-duplicates.
        let deleted = from + into - (min(into, from) + 9) / 10
        let deletion = try check(BenchImport.timed([oncue, "networks", "delete", "into", "--db", address.description]))
        let figures = Figures(
            store: address.isPostgres ? "postgis" : "sqlite", from: from, into: into, others: self.others,
            import_from_seconds: imported.seconds, merge_seconds: merged.seconds, merge_peak_rss_mb: merged.peak_rss_mb,
            merge_over_import: merged.seconds / max(imported.seconds, 0.01), delete_seconds: deletion.seconds, deleted: deleted)
        if json {
            print(try jsonString(figures))
        } else {
            print(
                String(
                    format: "%@: merge of %d locations into %d (store of %d): %.2f s, %.0f MB; import of the same rows %.2f s; "
                        + "merge/import %.2f; delete of the %d merged: %.2f s",
                    figures.store, from, into, from + into + self.others, merged.seconds, merged.peak_rss_mb, imported.seconds,
                    figures.merge_over_import, deleted, deletion.seconds))
        }
    }

    @discardableResult
    private func check(_ run: BenchImport.Run) throws -> BenchImport.Run {
        guard run.exit_status == 0 else { throw ValidationError("\(run.name) exited \(run.exit_status)") }
        return run
    }

    /// A point spread over the continental US by a fixed hash of the row, so every run loads the same places.
    static func spot(_ i: Int, salt: UInt64) -> Coordinate {
        var random = SeededRandom(seed: UInt64(i) &* 0x9E37_79B9_7F4A_7C15 ^ salt)
        return Coordinate(
            uncheckedLatitude: Double.random(in: 30...47, using: &random), longitude: Double.random(in: -120 ... -75, using: &random))
    }

    private func write(_ name: String, rows: Int, _ row: (Int) -> (id: String, brand: String, point: Coordinate)) throws -> String {
        let path = (dir as NSString).appendingPathComponent("\(name)-\(rows).csv")
        var text = "id,brand,name,lat,lon\n"
        text.reserveCapacity(rows * 48)
        for i in 0..<rows {
            let r = row(i)
            text += "\(r.id),\(r.brand),\(r.brand) \(i),\(Self.rounded(r.point.latitude)),\(Self.rounded(r.point.longitude))\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private static func rounded(_ degrees: Double) -> String { String(format: "%.6f", degrees) }

    private func load(_ address: StoreAddress, _ path: String) throws -> BenchImport.Run {
        try check(BenchImport.timed([oncue, "import", path, "--db", address.description, "--network-column", "brand", "--progress", "never"]))
    }

    private func freshStore() async throws -> StoreAddress {
        let address = try StoreAddress(db)
        switch address {
        case .file(let path):
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            return address
        case .postgres(let server):
            let fresh = server.with(database: server.database + "_merge")
            try await PostGISLocationStore.execute(on: server, "DROP DATABASE IF EXISTS \(fresh.database) WITH (FORCE)")
            try await PostGISLocationStore.execute(on: server, "CREATE DATABASE \(fresh.database)")
            return .postgres(fresh)
        }
    }
}

extension Coordinate {
    fileprivate func offsetNorth(_ meters: Double) -> Coordinate { Sphere.destination(from: self, meters: meters, bearing: 0) }
}
