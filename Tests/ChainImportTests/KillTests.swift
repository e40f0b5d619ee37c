import ChainImport
import Foundation
import LocationStore
import SyntheticData
import TestSupport
import Testing

/// Atomicity against the real thing: an `oncue import` process killed with SIGKILL in the middle
/// of a large import must leave the store exactly as it was before the import started.
@Suite("Kill -9 during an import")
struct KillTests {
    /// The `oncue` executable built next to this test bundle (`swift build` builds it with the tests).
    static func oncueExecutable() -> String? {
        var candidates: [URL] = []
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("oncue"))
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("oncue"))
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("oncue"))
        }
        candidates.append(SharedDatasets.repository.appendingPathComponent(".build/debug/oncue"))
        return candidates.map(\.path).first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(.timeLimit(.minutes(3)))
    func killedImportLeavesTheStoreAsItWas() async throws {
        let oncue = try #require(Self.oncueExecutable(), "oncue executable not found next to the tests; run `swift build` first")
        let t = try TempStore()
        try await t.importText("id,name,lat,lon\n1,Alpha,40.0,-75.0\n2,Beta,41.0,-76.0\n", ImportOptions(network: "acme-market"))
        let locationsBefore = try t.snapshot()
        let importsBefore = try t.store.imports(limit: 100)
        let networksBefore = try t.store.networks()
        let big = t.directory.appendingPathComponent("big.csv").path
        try SyntheticChainCSV(rows: 150_000, seed: 7).write(to: big)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: oncue)
        process.arguments = ["import", big, "--db", t.path, "--network-column", "brand", "--progress", "always"]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()

        // Wait until the child has written a good number of rows inside its transaction: past the 50,000th insert,
        // where an import this large drops the geohash index to build it again at the end.
        let killAfterRows = 60_000
        var seenRows = 0
        var buffered = ""
        let reader = stderr.fileHandleForReading
        while seenRows < killAfterRows && process.isRunning {
            let data = reader.availableData
            if data.isEmpty { break }
            buffered += String(decoding: data, as: UTF8.self)
            // Progress lines read "big.csv: 12,288 rows  3,051 rows/s  8%  ETA 0:45".
            for line in buffered.split(separator: "\n") {
                guard let colon = line.range(of: ": "), let rows = line[colon.upperBound...].range(of: " rows") else { continue }
                if let n = Int(line[colon.upperBound..<rows.lowerBound].replacingOccurrences(of: ",", with: "")) {
                    seenRows = max(seenRows, n)
                }
            }
        }
        #expect(process.isRunning, "the import finished before it could be killed (\(seenRows) rows seen)")
        let walBytes = (try? FileManager.default.attributesOfItem(atPath: t.path + "-wal")[.size] as? NSNumber)?.int64Value ?? 0
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGKILL)
        #expect(seenRows >= killAfterRows)
        #expect(walBytes > 0)

        let reopened = try SQLiteLocationStore(path: t.path)
        var after: [Location] = []
        try reopened.forEachLocation(batchSize: 10_000) { after += $0 }
        #expect(after.count == locationsBefore.count, "the killed import left \(after.count - locationsBefore.count) rows behind")
        if after.count == locationsBefore.count { #expect(after.sorted { $0.id < $1.id } == locationsBefore) }
        #expect(try reopened.imports(limit: 100) == importsBefore)
        #expect(try reopened.networks() == networksBefore)
        #expect(try reopened.verify() == [])
        // The store is fully usable afterwards.
        let report = try await ChainImporter(store: reopened, options: ImportOptions(network: "acme-market"))
            .run([.bytes(Array("id,lat,lon\n3,42.0,-77.0\n".utf8))])
        #expect(report.totals.inserted == 1)
    }
}
