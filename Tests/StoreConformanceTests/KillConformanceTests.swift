import ChainImport
import Foundation
import LocationStore
import PostGISStore
import StoreOpening
import Synchronization
import SyntheticData
import TestSupport
import Testing

/// A killed `oncue import` leaves either store exactly as it was before the import: the one kill -9 suite of `swift
/// test` (the campaign of many kills at random moments is `scripts/kill-import.sh`, RELIABILITY.md).
@Suite("Kill -9 during an import (SQLite and PostGIS, CSV and GeoJSON)")
struct KillConformanceTests {
    static let cases: [(StoreKind, SyntheticChainCSV.Format)] = TestStore.kinds.flatMap { kind in [(kind, .csv), (kind, .geojsonseq)] }

    @Test(.timeLimit(.minutes(6)), arguments: cases)
    func killedImportLeavesTheStoreAsItWas(kind: StoreKind, format: SyntheticChainCSV.Format) async throws {
        let oncue = try #require(OncueExecutable.path, "oncue executable not found; run `swift build` first")
        try await TestStore.with(kind) { store, test in
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-kill-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            // The seed holds the big file's first thousand rows under other names, so the killed import both
            // inserts and updates.
            let seed = dir.appendingPathComponent("seed.csv").path
            try SyntheticChainCSV(rows: 1_000, seed: 7).write(to: seed)
            let renamed = try String(contentsOfFile: seed, encoding: .utf8).replacingOccurrences(of: " #", with: " old #")
            try Data(renamed.utf8).write(to: URL(fileURLWithPath: seed))
            let options = ImportOptions(networkColumn: "brand")
            _ = try await ChainImporter(for: store, options: options).run([try ImportInput.file(seed)])
            let before = try await ImportConformanceTests.snapshot(store)
            let importsBefore = try await store.imports(limit: 100, before: nil)
            let networksBefore = try await store.networks()
            let big = dir.appendingPathComponent("big.\(format.rawValue)").path
            // Big enough that the kill lands mid-import on an idle machine, small enough that a loaded one reaches the
            // kill point in time: at 120,000 rows both PostGIS cases ran past a four-minute limit in a CI run.
            var file = SyntheticChainCSV(rows: 60_000, seed: 7)
            file.format = format
            try file.write(to: big)
            // Kill at a moment that differs from run to run but always lies inside the import: after the first rows
            // are read, while rows still stream, or while the server writes them.
            // Test databases use trust authentication: the URL has no password to hide, so its description is the URL.
            let child = try ProgressReportingImport(
                oncue, ["import", big, "--db", test.address.description, "--network-column", "brand", "--progress", "always"])
            let killAfter = Int.random(in: 10_000...30_000)  // half the file or more still to go, however late this task runs
            _ = try await eventually(within: .seconds(180)) { child.rowsSeen >= killAfter || !child.process.isRunning }
            #expect(child.process.isRunning, "the import finished before it could be killed (\(child.rowsSeen) rows seen)")
            let terminated = try await child.kill()
            #expect(terminated == .uncaughtSignal)
            // A fresh connection: the killed one's transaction is gone with it.
            let reopened = try await test.address.open()
            let after = try await ImportConformanceTests.snapshot(reopened)
            #expect(after.count == before.count, "the killed import left \(after.count - before.count) rows behind")
            #expect(after == before)
            #expect(try await reopened.imports(limit: 100, before: nil) == importsBefore)
            #expect(try await reopened.networks() == networksBefore)
            #expect(try await reopened.verify() == [])
            // The store takes the next import.
            let next = Array("store_id,brand,name,latitude,longitude\n999999,Acme Market,After,40.0,-75.0\n".utf8)
            let report = try await ChainImporter(for: reopened, options: options).run([.bytes(next)])
            #expect(report.totals.inserted == 1, "\(report.totals)")
            await reopened.close()
        }
    }
}

/// An `oncue import --progress always` child whose progress lines are read as they come (a readability handler, not a
/// blocking read on the cooperative pool).
final class ProgressReportingImport: Sendable {
    let process: Process
    /// The most rows a progress line has reported so far.
    private let rows = RowCount()

    private final class RowCount: Sendable {
        let value = Mutex(0)
    }

    init(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        let rows = self.rows
        let pending = Mutex("")
        stderr.fileHandleForReading.readabilityHandler = { handle in
            let chunk = String(decoding: handle.availableData, as: UTF8.self)
            // Progress lines read "big.csv: 12,288 rows  3,051 rows/s  8%  ETA 0:45", ended by CR or LF.
            let complete = pending.withLock { text -> [Substring] in
                text += chunk
                let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" }
                text = String(lines.last ?? "")
                return Array(lines.dropLast())
            }
            for line in complete {
                guard let colon = line.range(of: ": "), let end = line[colon.upperBound...].range(of: " rows") else { continue }
                if let n = Int(line[colon.upperBound..<end.lowerBound].replacingOccurrences(of: ",", with: "")) {
                    rows.value.withLock { $0 = max($0, n) }
                }
            }
        }
        self.process = process
        try process.run()
    }

    var rowsSeen: Int { rows.value.withLock { $0 } }

    /// Sends SIGKILL and waits, polling without blocking a thread, until the child is gone; how it ended.
    func kill() async throws -> Process.TerminationReason {
        Foundation.kill(process.processIdentifier, SIGKILL)
        _ = try await eventually(within: .seconds(60)) { !process.isRunning }
        (process.standardError as? Pipe)?.fileHandleForReading.readabilityHandler = nil
        return process.terminationReason
    }
}
