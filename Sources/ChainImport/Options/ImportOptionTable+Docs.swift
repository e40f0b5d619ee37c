import Foundation

extension ImportOptionSpec {
    /// What the option accepts, for help and docs.
    package var accepts: String { surface == .fileOrBodyPart ? "a JSON file" : kind.accepts }

    /// The default as a reader should see it; nil when not giving the option means "not set".
    package var defaultText: String? { kind.defaultText }

    /// How the command line takes it (`--dry-run`, `--brand-catalogue`/`--no-brand-catalogue`), nil when it does not.
    package var commandLineSpelling: String? {
        switch (surface, kind) {
        case (.requestOnly, _): nil
        case (_, .flag(true)): "`\(flagName)` / `--no-\(flagName.dropFirst(2))`"
        case (_, .flag(false)): "`\(flagName)`"
        default: "`\(flagName) <\(valueName)>`"
        }
    }

    /// The name of its value in help (`--max-line-bytes <bytes>`).
    package var valueName: String { declaration.valueName }

    /// How a request takes it (`?dry_run=true`, the body's `mapping` part).
    package var requestSpelling: String {
        switch surface {
        case .fileOrBodyPart: "body part `\(name)`"
        case .both, .requestOnly: (["`\(name)`"] + deprecatedNames.map { "`\($0)` (deprecated)" }).joined(separator: ", ")
        }
    }
}

extension ImportOptionTable {
    /// docs/importing.md's table of options (a test compares them).
    package static var markdownTable: String {
        var lines = ["| command line | request | accepts | default | what it does |", "|---|---|---|---|---|"]
        for option in all {
            let cells = [
                option.commandLineSpelling ?? "—", option.requestSpelling, option.accepts, option.defaultText ?? "—",
                option.summary,
            ]
            lines.append("| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }
}
