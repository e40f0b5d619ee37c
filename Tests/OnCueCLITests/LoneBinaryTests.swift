import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The binary needs nothing beside it: its OpenAPI document and console are compiled in.
@Suite struct LoneBinaryTests {
    /// Reads `path` from a server on loopback with a plain socket-free URLSession call; nil if it does not answer.
    static func get(_ url: URL) async -> (status: Int, type: String, body: Data)? {
        guard let (data, response) = try? await URLSession.shared.data(from: url), let http = response as? HTTPURLResponse else { return nil }
        return (http.statusCode, http.value(forHTTPHeaderField: "Content-Type") ?? "", data)
    }

    @Test(.timeLimit(.minutes(2)))
    func servesItsDocumentAndConsoleFromAnEmptyDirectory() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-lone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let lone = dir.appendingPathComponent("oncue")
        try FileManager.default.copyItem(at: CLIRunner.binary, to: lone)
        // Nothing else in the directory: no resource bundle beside the binary.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["oncue"])
        let store = dir.appendingPathComponent("store.sqlite").path
        let initialise = Process()
        initialise.executableURL = lone
        initialise.arguments = ["db", "init", store]
        initialise.standardOutput = FileHandle.nullDevice
        try initialise.run()
        initialise.waitUntilExit()
        #expect(initialise.terminationStatus == 0)

        let server = Process()
        server.executableURL = lone
        server.arguments = ["serve", "--db", store, "--port", "0"]
        server.currentDirectoryURL = dir
        let log = Pipe()
        server.standardError = log
        server.standardOutput = FileHandle.nullDevice
        try server.run()
        defer {
            if server.isRunning {
                server.terminate()
                server.waitUntilExit()
            }
        }
        // The server announces its port on standard error: `... listening ... address=127.0.0.1:PORT`.
        var text = ""
        var port: Int?
        let deadline = Date().addingTimeInterval(60)
        while port == nil, Date() < deadline, server.isRunning {
            let chunk = log.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            if let match = text.firstMatch(of: /127\.0\.0\.1:(\d+)/) { port = Int(match.output.1) }
        }
        let found = try #require(port, "no port announced: \(text)")
        let base = URL(string: "http://127.0.0.1:\(found)")!
        let document = try #require(await Self.get(base.appendingPathComponent("openapi.yaml")))
        #expect(document.status == 200 && String(decoding: document.body, as: UTF8.self).hasPrefix("openapi: 3.1.0"))
        let page = try #require(await Self.get(URL(string: "\(base)/console/")!))
        #expect(page.status == 200 && page.type.hasPrefix("text/html"))
        #expect(String(decoding: page.body, as: UTF8.self).contains("OnCue console"))
        let world = try #require(await Self.get(URL(string: "\(base)/console/world.json")!))
        #expect(world.status == 200 && world.body.count > 100_000)
    }
}

/// The man page kept in docs/ (make manual) documents every command the binary has.
@Suite struct ManualTests {
    @Test func everyCommandIsInTheManPage() async throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let manual = try String(contentsOf: repo.appendingPathComponent("docs/oncue.1"), encoding: .utf8)
        let help = try await CLIRunner.run(["--help"]).stdout
        // "SUBCOMMANDS:" lists one command a line, indented by two spaces ("  name   abstract"); wrapped abstracts
        // are indented further.
        let lines = help.components(separatedBy: "SUBCOMMANDS:").last?.split(separator: "\n") ?? []
        let commands = lines.filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }.filter { $0 != "See" }
        #expect(Set(commands) == Set(HelpGoldenTests.commands.filter { $0.count == 1 }.map { $0[0] }), "\(commands)")
        for command in commands {
            #expect(
                manual.contains("oncue \(command)") || manual.contains(".It Em \(command)"),
                "\(command) is missing from docs/oncue.1; run make manual")
        }
    }
}
