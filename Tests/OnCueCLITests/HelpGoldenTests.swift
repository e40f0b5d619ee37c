import Foundation
import Testing

/// The full `--help` of every command, held as files: a change to a command's options or texts shows in review as a
/// change to its golden file (`bash scripts/update-help-golden.sh` writes them from the built binary).
@Suite struct HelpGoldenTests {
    /// Every command and subcommand of `oncue`.
    static let commands: [[String]] = [
        [], ["db"], ["db", "init"], ["db", "stats"], ["db", "check"], ["nearest"], ["refresh"], ["import"], ["imports"],
        ["imports", "list"], ["imports", "show"], ["networks"], ["networks", "list"], ["networks", "set"], ["networks", "alias"],
        ["networks", "delete"], ["networks", "merge"], ["serve"], ["replay"],
    ]

    /// The width help is laid out for, whatever terminal runs the tests.
    static let columns = "100"

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func fileName(_ command: [String]) -> String { (["oncue"] + command).joined(separator: "-") + ".txt" }

    @Test(arguments: commands)
    func helpMatchesItsGoldenFile(command: [String]) throws {
        let r = try CLIRunner.run(command + ["--help"], environment: ["COLUMNS": Self.columns])
        #expect(r.status == 0, "\(command) --help exited \(r.status): \(r.stderr)")
        let golden = try String(contentsOf: Self.directory.appendingPathComponent(Self.fileName(command)), encoding: .utf8)
        #expect(
            r.stdout == golden,
            "oncue \(command.joined(separator: " ")) --help differs from its golden file; run scripts/update-help-golden.sh and review the diff")
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
