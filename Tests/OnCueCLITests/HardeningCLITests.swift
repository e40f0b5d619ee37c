import Foundation
import TestSupport
import Testing

/// The CLI against careless and hostile input: `--` before positionals, escape sequences from files, the import's
/// new options.
@Suite struct HardeningCLITests {
    func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    func write(_ dir: URL, _ name: String, _ text: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `--` ends the options in every command that takes positional arguments, and a `--` is never read as a value.
    @Test func doubleDashBeforePositionalsWorksInEveryCommand() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("s.sqlite").path
        let csv = try write(dir, "a.csv", "id,name,lat,lon\n1,Alpha,40.712345,-74.012345\n")
        let cases: [(args: [String], output: String)] = [
            (["db", "init", "--", store], "created"),
            (["import", "--db", store, "--network", "acme", "--", csv], "inserted 1"),
            (["db", "stats", "--json", "--", store], "\"locations\" : 1"),
            (["db", "check", "--", store], "ok:"),
            (["nearest", "--db", store, "--", "40.7", "-74.0"], "loc_acme_1"),
            (["nearest", "--db", store, "--json", "--", "40.7,-74.0"], "loc_acme_1"),
            (["refresh", "--db", store, "--", "40.7", "-74.0"], "loc_acme_1"),
            (["imports", "show", "--db", store, "--", "1"], "import #1"),
            (["networks", "set", "--db", store, "--name", "Acme", "--", "acme"], "acme: Acme"),
            (["networks", "alias", "--db", store, "--", "acme", "ACME Market"], "→ acme"),
        ]
        for (args, output) in cases {
            let r = try await CLIRunner.run(args)
            #expect(r.status == 0, "\(args) → \(r.status): \(r.stderr)")
            #expect(r.stdout.contains(output), "\(args) printed \(r.stdout)")
        }
        // replay: the positional after `--` is read as a trace path (a runtime error about that file, not a usage error).
        let wallet = try write(dir, "wallet.json", #"{"cards": [{"network_id": "acme", "name": "Acme"}]}"#)
        let replay = try await CLIRunner.run([
            "replay", "--db", store, "--wallet", wallet, "--", dir.appendingPathComponent("no-such-trace.gpx").path,
        ])
        #expect(replay.status != 2 && replay.stderr.contains("no-such-trace"), "\(replay.stderr)")
        // After `--` an option is a value: two values where a coordinate was expected.
        let late = try await CLIRunner.run(["nearest", "--", "40.7", "-74.0", "--db", store])
        #expect(late.status == 2 && late.stderr.contains("expected LAT LON"))
    }

    /// A mistyped option, an option a command does not have, and a negative value are named as what they are (issue
    /// #47): they were "give the store once…", "expected LAT LON" and "Missing value". The commands whose positionals
    /// catch unrecognised words (coordinates, the `db` commands' old positional store) name the option themselves.
    @Test func errorsNameTheMistake() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("s.sqlite").path
        #expect(try await CLIRunner.run(["db", "init", "--db", store]).status == 0)
        let cases: [(args: [String], says: String)] = [
            (["db", "stats", "--db", store, "--fromat", "json"], "unknown option '--fromat'; did you mean '--format'?"),
            (["db", "check", "--db", store, "--format", "json"], "unknown option '--format'"),
            (["refresh", "--db", store, "40.7", "-74.0", "--bogus"], "unknown option '--bogus'"),
            (["refresh", "--db", store, "40.7", "-74.0", "--max-region", "5"], "did you mean '--max-regions'?"),
            (["nearest", "--db", store, "--bogus", "40.7", "-74.0"], "unknown option '--bogus'"),
            (["serve", "--db", store, "--rate-limit-rps", "-1"], "--rate-limit-rps must be a number in [0, 1e9], got '-1'"),
        ]
        for (args, says) in cases {
            let r = try await CLIRunner.run(args)
            #expect(r.status == 2 && r.stderr.contains(says), "\(args) → \(r.status): \(r.stderr)")
        }
        // A negative coordinate is still a coordinate, and the store given twice is still refused as such.
        #expect(try await CLIRunner.run(["nearest", "--db", store, "40.7", "-74.0"]).status == 0)
        let twice = try await CLIRunner.run(["db", "stats", "--db", store, store])
        #expect(twice.status == 2 && twice.stderr.contains("give the store once"), "\(twice.stderr)")
    }

    /// Values from a file reach the terminal with their control characters written out: a header, a name and an
    /// error message that carry escape sequences cannot clear the screen or retitle the window.
    @Test func escapeSequencesFromAFileNeverReachTheTerminal() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("s.sqlite").path
        #expect(try await CLIRunner.run(["db", "init", store]).status == 0)
        let evil = "\u{1B}]0;pwned\u{7}\u{1B}[2J"
        let csv = try write(dir, "evil.csv", "id,name,lat,lon,note\(evil)\n1,Bad\(evil)Name,40.712345,-74.012345,x\n2,Two,41\(evil),-74.1,y\n")
        let noCoordinates = try write(dir, "nocoords.csv", "id,name\(evil)\n1,x\n")
        let runs = [
            try await CLIRunner.run(["import", csv, "--db", store, "--network", "acme"]),
            try await CLIRunner.run(["imports", "show", "1", "--db", store]),
            try await CLIRunner.run(["nearest", "--db", store, "40.7", "-74.0"]),
            try await CLIRunner.run(["refresh", "--db", store, "40.7", "-74.0", "--table"]),
            try await CLIRunner.run(["import", noCoordinates, "--db", store, "--network", "acme"]),
            try await CLIRunner.run(["networks", "list", "--db", store]),
        ]
        for r in runs {
            #expect(
                !r.stdout.contains("\u{1B}") && !r.stderr.contains("\u{1B}") && !r.stdout.contains("\u{7}") && !r.stderr.contains("\u{7}"),
                "raw control characters in \(r.stdout.debugDescription) \(r.stderr.debugDescription)")
        }
        #expect(runs[0].stdout.contains("\\u{1B}"))  // shown, written out
        #expect(runs[2].stdout.contains("Bad\\u{1B}]0;pwned\\u{7}\\u{1B}[2JName"))
        #expect(runs[4].status == 1 && runs[4].stderr.contains("'name\\u{1B}"))
    }

    @Test func importTakesTheNewOptions() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("s.sqlite").path
        #expect(try await CLIRunner.run(["db", "init", store]).status == 0)
        let csv = try write(
            dir, "b.csv",
            "id,brand,name,lat,lon\n1,,Alpha \(String(repeating: "x", count: 400)),40.712345,-74.012345\n"
                + "2,Foo Mart,Beta,40.812345,-74.112345\n3,,Gamma,40.912345,-74.212345\n")
        let r = try await CLIRunner.run(["import", csv, "--db", store, "--network", "acme", "--network-column", "brand", "--max-line-bytes", "256"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("rejected: line_too_long 1"), "\(r.stdout)")
        #expect(r.stdout.contains("read 3, inserted 2"))
        let stats = try await CLIRunner.run(["db", "stats", store, "--json"])
        #expect(stats.stdout.contains("\"acme\" : 1") && stats.stdout.contains("\"foo-mart\" : 1"), "\(stats.stdout)")
        let bad = try write(dir, "c.csv", "id,lat,lon\n1,40.712345,-74.012345\n")
        var bytes = Array("id,name,lat,lon\n1,Caf".utf8) + [0xE9] + Array(",40.712345,-74.012345\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: bad))
        let strict = try await CLIRunner.run(["import", bad, "--db", store, "--network", "acme", "--strict-utf8"])
        #expect(strict.status == 1 && strict.stderr.contains("line 2: the 'name' column is not valid UTF-8"), "\(strict.stderr)")
        bytes = []
        let limit = try await CLIRunner.run(["import", bad, "--db", store, "--network", "acme", "--max-line-bytes", "10"])
        #expect(limit.status == 2 && limit.stderr.contains("--max-line-bytes"))
        let hex = try await CLIRunner.run(["nearest", "--db", store, "0x1p4", "0"])
        #expect(hex.status == 2 && hex.stderr.contains("not a number"))
    }
}
