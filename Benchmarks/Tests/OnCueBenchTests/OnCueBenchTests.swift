import Foundation
import Testing

/// Runs the built `oncue-bench` on small inputs, as BENCHMARKS.md's commands run it on large ones.
@Suite struct OnCueBenchTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable `swift test` built beside this test bundle (in `.build` of this package, or of the main package
    /// when CI builds both into one directory).
    static var executable: String {
        let bundle = Bundle.main.bundleURL.deletingLastPathComponent()
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [
            runner.appendingPathComponent("oncue-bench").path, bundle.appendingPathComponent("oncue-bench").path,
            package.appendingPathComponent(".build/debug/oncue-bench").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[2]
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    /// `nearest` on small files in the anchor kit's format, with CRLF line ends and no final newline: every store is
    /// read (`--limit-stores` honoured), and the figures are there and positive.
    @Test func nearestReadsTheAnchorKitFormat() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var generator = SystemRandomNumberGenerator()
        var stores = ["id,lon,lat,network_id"]
        for i in 0..<300 {
            stores.append(
                "\(i),\(-122.5 + Double.random(in: 0..<0.5, using: &generator)),\(37.6 + Double.random(in: 0..<0.5, using: &generator)),\(i % 7)")
        }
        var queries = ["qid,lon,lat,pref_network"]
        for i in 0..<20 { queries.append("\(i),\(-122.4 + Double(i) / 1_000),\(37.7 + Double(i) / 1_000),\(i % 7)") }
        let storesPath = dir.appendingPathComponent("stores.csv").path
        let queriesPath = dir.appendingPathComponent("queries.csv").path
        try Data(stores.joined(separator: "\r\n").utf8).write(to: URL(fileURLWithPath: storesPath))
        try Data((queries.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: queriesPath))
        struct Output: Decodable {
            let locations: Int
            let queries_per_second: Double
            let p50_us: Double
            let wire_json_us: Double
        }
        for (limit, expected) in [(nil, 300), (120, 120)] as [(Int?, Int)] {
            let r = try Self.run(
                [
                    "nearest", "--stores", storesPath, "--queries", queriesPath, "--seconds", "0.2",
                    "--baseline-queries", "3", "--json",
                ] + (limit.map { ["--limit-stores", "\($0)"] } ?? []))
            #expect(r.status == 0, "\(r.stderr)")
            let output = try JSONDecoder().decode(Output.self, from: Data(r.stdout.utf8))
            #expect(output.locations == expected)
            #expect(output.queries_per_second > 0 && output.p50_us > 0 && output.wire_json_us > 0)
        }
    }

    @Test func replayReportsFixesPerSecond() throws {
        struct Output: Decodable {
            let locations: Int
            let single_core_fixes_per_second: Double
            let fixes_per_trace: Int
        }
        let r = try Self.run(["replay", "--locations", "2000", "--fixes", "2000", "--jobs", "2", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let output = try JSONDecoder().decode(Output.self, from: Data(r.stdout.utf8))
        #expect(output.locations == 2_000 && output.fixes_per_trace == 2_000 && output.single_core_fixes_per_second > 0)
    }

    /// `reuse` on a new SQLite file: both methods ran, and the kept store answered faster than one opened per use.
    @Test func reuseComparesAKeptStoreWithOneOpenedPerUse() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-bench-reuse-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let r = try Self.run(["reuse", "--db", path, "--seconds", "0.3", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        struct Sample: Decodable {
            let name: String
            let queries_per_second: Double
        }
        let samples = try JSONDecoder().decode([Sample].self, from: Data(r.stdout.utf8))
        #expect(samples.count == 2)
        #expect(samples.allSatisfy { $0.queries_per_second > 0 })
        #expect(samples.last!.queries_per_second > samples.first!.queries_per_second)
    }

    @Test func geoPrintsRates() throws {
        let r = try Self.run(["geo", "--seconds", "0.1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.isEmpty)
    }

    /// The product's `oncue` built beside `oncue-bench` (CI builds both into one directory).
    static var oncue: String { URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("oncue").path }

    /// `merge` on a small SQLite store: every command it runs succeeds (it stops at the first that fails), and the
    /// times it reports are there.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: oncue), "needs the product's oncue built beside oncue-bench"))
    func mergeTimesTheMergeBesideTheImport() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        struct Output: Decodable {
            let import_from_seconds: Double
            let merge_seconds: Double
            let delete_seconds: Double
        }
        let r = try Self.run([
            "merge", "--oncue", Self.oncue, "--db", dir.appendingPathComponent("m.sqlite").path, "--from", "300", "--into", "100",
            "--others", "50", "--dir", dir.path, "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let output = try JSONDecoder().decode(Output.self, from: Data(r.stdout.utf8))
        // /usr/bin/time counts in hundredths: a small run may take 0.00 s.
        #expect(output.import_from_seconds >= 0 && output.merge_seconds >= 0 && output.delete_seconds >= 0)
    }
}
