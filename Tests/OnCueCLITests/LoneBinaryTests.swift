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

    /// Starts the process `make` returns. A binary just copied cannot be run while a child forked meanwhile by another
    /// test (which inherits the copy's open descriptor until it execs) still holds it: the exec fails with ETXTBSY, and
    /// is tried again with a new process, for up to 5 s.
    static func run(_ make: () -> Process) async throws -> Process {
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            let process = make()
            do {
                try process.run()
                return process
            } catch let error as NSError {
                let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
                guard underlying?.domain == NSPOSIXErrorDomain, underlying?.code == Int(ETXTBSY), ContinuousClock.now < deadline else {
                    throw error
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
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
        let initialise = try await Self.run {
            let process = Process()
            process.executableURL = lone
            process.arguments = ["db", "init", store]
            process.standardOutput = FileHandle.nullDevice
            return process
        }
        initialise.waitUntilExit()
        #expect(initialise.terminationStatus == 0)

        let log = Pipe()
        let server = try await Self.run {
            let process = Process()
            process.executableURL = lone
            process.arguments = ["serve", "--db", store, "--port", "0"]
            process.currentDirectoryURL = dir
            process.standardError = log
            process.standardOutput = FileHandle.nullDevice
            return process
        }
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

    /// The help the binary gives, as its `--experimental-dump-help` tree has it, is the man page's: every command's
    /// abstract and discussion and every shown argument's help are in docs/oncue.1, so a help text changed without
    /// `make manual` fails here. The page is compared as swift-argument-parser's generate-manual writes it: ASCII only
    /// (it drops other characters), a backslash as `\e`, a line break in a flag's help as a space.
    @Test func theManPageHasTheBinarysHelp() async throws {
        struct Argument: Decodable {
            var abstract: String?
            var discussion: String?
            var shouldDisplay: Bool
        }
        struct Command: Decodable {
            var commandName: String
            var abstract: String?
            var discussion: String?
            var arguments: [Argument]?
            var subcommands: [Command]?
        }
        struct Dump: Decodable { var command: Command }
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let manual = Self.plain(try String(contentsOf: repo.appendingPathComponent("docs/oncue.1"), encoding: .utf8))
        let dump = try JSONDecoder().decode(Dump.self, from: Data(try await CLIRunner.run(["--experimental-dump-help"]).stdout.utf8))
        var missing: [String] = []
        var checked = 0
        func check(_ command: Command, path: String) {
            for text in [command.abstract, command.discussion].compactMap({ $0 }) {
                checked += 1
                if !manual.contains(Self.plain(text)) { missing.append("\(path): \(text.prefix(60))") }
            }
            for argument in command.arguments ?? [] where argument.shouldDisplay {
                for text in [argument.abstract, argument.discussion].compactMap({ $0 }) {
                    checked += 1
                    if !manual.contains(Self.plain(text)) { missing.append("\(path): \(text.prefix(60))") }
                }
            }
            for sub in command.subcommands ?? [] { check(sub, path: "\(path) \(sub.commandName)") }
        }
        check(dump.command, path: "oncue")
        // Every command has an abstract and every option a help: a dump read as nothing would check nothing.
        #expect(checked > 200, "only \(checked) help texts read from the dump")
        #expect(missing.isEmpty, "not in docs/oncue.1 as the binary says it (run make manual): \(missing.joined(separator: "; "))")
    }

    /// Text as generate-manual keeps it, unescaped, with every run of blanks one space.
    static func plain(_ text: String) -> String {
        let unescaped = text.replacingOccurrences(of: "\\e", with: "\\").replacingOccurrences(of: "\\&", with: "")
            .replacingOccurrences(of: "\\(dq", with: "\"")
        let ascii = String(String.UnicodeScalarView(unescaped.unicodeScalars.filter(\.isASCII)))
        return ascii.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
