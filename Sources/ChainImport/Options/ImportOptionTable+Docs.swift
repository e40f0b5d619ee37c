import Foundation

extension ImportOptionSpec {
    /// What the option accepts, for help and docs.
    package var accepts: String {
        if surface == .fileOrBodyPart { return "a JSON file" }
        return switch kind {
        case .text: "text"
        case .flag: "true or false"
        case .choice(let shown): shown.joined(separator: " ")
        case .integer(let range, _): "\(range.lowerBound)...\(range.upperBound)"
        case .positive(let limit, _): "above 0, at most \(Self.shown(limit))"
        }
    }

    /// The default as a reader should see it; nil when not giving the option means "not set".
    package var defaultText: String? {
        switch kind {
        case .text, .choice: nil
        case .flag(let on): on ? "true" : "false"
        case .integer(_, let value): String(value)
        case .positive(_, let value): Self.shown(value)
        }
    }

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
    package var valueName: String { surface == .fileOrBodyPart ? "file" : String(name.split(separator: "_").last ?? "") }

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
