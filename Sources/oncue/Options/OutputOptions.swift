import ArgumentParser
import Foundation

/// How a command prints its answer: an aligned table for people, JSON for programs.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
    case table, json
}

/// `--format table|json` (and `--json`, its short form), the same in every command that prints results.
struct OutputOptions: ParsableArguments {
    @Option(help: "Output format: table or json.") var format: OutputFormat = .table
    @Flag(help: "Same as --format json.") var json = false

    var isJSON: Bool { json || format == .json }
}

/// `--network`, repeatable, each value also a comma-separated list: `--network a --network b` = `--network a,b`.
struct NetworkListOptions: ParsableArguments {
    @Option(
        name: [.customLong("network"), .customLong("networks")],
        help: ArgumentHelp("A network id (repeatable; a comma-separated list works too).", valueName: "id"))
    var raw: [String] = []

    /// Every id given, in order, without blanks or repeats.
    var ids: [String] {
        var seen = Set<String>()
        return raw.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
