import ChainImport
import Foundation
import LocationStore
import PostGISStore
import StoreOpening
import SyntheticData
import Testing

/// A killed `oncue import` leaves either store exactly as it was before the import.
@Suite("Kill -9 during an import (SQLite and PostGIS)")
struct KillConformanceTests {
    static var oncue: String? {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("oncue"),
            repo.appendingPathComponent(".build/debug/oncue"),
        ]
        return candidates.map(\.path).first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(.timeLimit(.minutes(4)), arguments: TestStore.kinds)
    func killedImportLeavesTheStoreAsItWas(kind: StoreKind) async throws {
        let oncue = try #require(Self.oncue, "oncue executable not found; run `swift build` first")
        try await TestStore.with(kind) { store, test in
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-kill-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let seed = dir.appendingPathComponent("seed.csv").path
            try Data("id,name,lat,lon\n1,Alpha,40.012345,-75.012345\n2,Beta,41.012345,-76.012345\n".utf8).write(to: URL(fileURLWithPath: seed))
            _ = try await ChainImporter(for: store, options: ImportOptions(network: "acme-market")).run([try ImportInput.file(seed)])
            let before = try await ImportConformanceTests.snapshot(store)
            let importsBefore = try await store.imports(limit: 100, before: nil)
            let networksBefore = try await store.networks()
            let big = dir.appendingPathComponent("big.csv").path
            try SyntheticChainCSV(rows: 120_000, seed: 7).write(to: big)
            // Kill at a moment that differs from run to run but always lies inside the import: after the first rows
            // are read, while rows still stream, or while the server writes them.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: oncue)
            // Test databases use trust authentication: the URL has no password to hide, so its description is the URL.
            process.arguments = ["import", big, "--db", test.address.description, "--network-column", "brand", "--progress", "always"]
            let stderr = Pipe()
            process.standardError = stderr
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            var seenRows = 0
            var buffered = ""
            let killAfter = Int.random(in: 20_000...60_000)  // half the file or more still to go, however late this thread runs
            while seenRows < killAfter && process.isRunning {
                let data = stderr.fileHandleForReading.availableData
                if data.isEmpty { break }
                buffered += String(decoding: data, as: UTF8.self)
                for line in buffered.split(separator: "\n") {
                    guard let colon = line.range(of: ": "), let rows = line[colon.upperBound...].range(of: " rows") else { continue }
                    if let n = Int(line[colon.upperBound..<rows.lowerBound].replacingOccurrences(of: ",", with: "")) { seenRows = max(seenRows, n) }
                }
            }
            #expect(process.isRunning, "the import finished before it could be killed (\(seenRows) rows seen)")
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            // A fresh connection: the killed one's transaction is gone with it.
            let reopened = try await test.address.open()
            let after = try await ImportConformanceTests.snapshot(reopened)
            #expect(after.count == before.count, "the killed import left \(after.count - before.count) rows behind")
            #expect(after == before)
            #expect(try await reopened.imports(limit: 100, before: nil) == importsBefore)
            #expect(try await reopened.networks() == networksBefore)
            #expect(try await reopened.verify() == [])
            await reopened.close()
        }
    }
}
