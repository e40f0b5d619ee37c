import Foundation
import TestSupport
import Testing

/// The full `--help` of every command, held as files: a change to a command's options or texts shows in review as a
/// change to its golden file (`bash scripts/update-help-golden.sh` writes them from the built binary).
@Suite struct HelpGoldenTests {
    /// Every command and subcommand of `oncue`.
    static let commands: [[String]] = [
        [], ["db"], ["db", "init"], ["db", "stats"], ["db", "check"], ["nearest"], ["refresh"], ["import"], ["imports"],
        ["imports", "list"], ["imports", "show"], ["export"], ["networks"], ["networks", "list"], ["networks", "show"], ["networks", "set"],
        ["networks", "alias"],
        ["networks", "delete"], ["networks", "merge"], ["locations"], ["locations", "add"], ["locations", "show"], ["locations", "set"],
        ["locations", "delete"], ["serve"], ["replay"], ["keys"], ["keys", "create"], ["keys", "list"], ["keys", "revoke"], ["audit"],
    ]

    /// The width help is laid out for, whatever terminal runs the tests.
    static let columns = "100"

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func fileName(_ command: [String]) -> String { (["oncue"] + command).joined(separator: "-") + ".txt" }

    @Test(arguments: commands)
    func helpMatchesItsGoldenFile(command: [String]) async throws {
        let r = try await CLIRunner.run(command + ["--help"], environment: ["COLUMNS": Self.columns])
        #expect(r.status == 0, "\(command) --help exited \(r.status): \(r.stderr)")
        let golden = try String(contentsOf: Self.directory.appendingPathComponent(Self.fileName(command)), encoding: .utf8)
        #expect(
            r.stdout == golden,
            "oncue \(command.joined(separator: " ")) --help differs from its golden file; run scripts/update-help-golden.sh and review the diff")
    }

    /// Help paragraphs are one line in the source, so that the help wraps them at the terminal's width: a hard newline
    /// in mid-sentence left a word or two alone on a line. Laid out 1,000 columns wide, no prose line may be followed by
    /// another unindented one (examples are indented, and a line ending in ':' introduces a list). Examples fit 100.
    @Test(arguments: commands)
    func paragraphsAreNotBrokenByHand(command: [String]) async throws {
        let r = try await CLIRunner.run(command + ["--help"], environment: ["COLUMNS": "1000"])
        var previous = ""
        for line in r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("USAGE:") { break }
            let prose = !line.isEmpty && !line.hasPrefix(" ")
            #expect(
                !(prose && !previous.isEmpty && !previous.hasPrefix(" ") && !previous.hasSuffix(":")),
                "oncue \(command.joined(separator: " ")): a paragraph broken after '\(previous.suffix(40))'")
            #expect(!line.hasPrefix("  oncue") || line.count <= 100, "oncue \(command.joined(separator: " ")): an example over 100 columns: \(line)")
            previous = line
        }
    }

    @Test("every golden file belongs to a command, and every command has an example")
    func goldenFilesAreTheCommands() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter { $0.hasSuffix(".txt") }
        #expect(Set(files) == Set(Self.commands.map(Self.fileName)))
        for command in Self.commands where command.count == 2 || ["nearest", "refresh", "import", "serve", "replay"].contains(command.first ?? "") {
            let text = try String(contentsOf: Self.directory.appendingPathComponent(Self.fileName(command)), encoding: .utf8)
            #expect(text.contains("Example"), "oncue \(command.joined(separator: " ")) --help has no example")
        }
    }
}
