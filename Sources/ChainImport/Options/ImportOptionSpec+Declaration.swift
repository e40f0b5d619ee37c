extension ImportOptionSpec {
    /// An option as `ImportOptionTable` declares it; its flag, help and help section follow from what it is.
    init(
        _ name: String, _ kind: Kind, _ summary: String, surface: Surface = .both, deprecatedNames: [String] = [],
        section: String? = nil, variable: String? = nil, write: @escaping @Sendable (inout ImportOptionValues, ParsedValue) -> Void
    ) {
        let valueName = surface == .fileOrBodyPart ? "file" : String(name.split(separator: "_").last ?? "")
        var help = summary + "."
        switch kind {
        case .choice, .integer, .positive: help += " (\(kind.accepts)" + (kind.defaultText.map { "; default \($0)" } ?? "") + ")"
        case .text, .flag: break
        }
        let form: OptionDeclaration.Form = if case .flag(let on) = kind { .toggle(default: on) } else { .value }
        let declaration = OptionDeclaration(
            name: name, flag: surface.isCommandLine ? Self.flag(name) : nil, variable: variable, summary: summary, help: help,
            valueName: valueName, form: form, section: section, takesAnyWordAsValue: false)
        self.init(declaration: declaration, kind: kind, surface: surface, deprecatedNames: deprecatedNames, write: write)
    }
}

extension ImportOptionSpec.Surface {
    /// Whether `oncue import` has a flag for it.
    var isCommandLine: Bool { if case .requestOnly = self { false } else { true } }
}

extension ImportOptionSpec.Kind {
    /// What a value may be, for help and docs.
    var accepts: String {
        switch self {
        case .text: "text"
        case .flag: "true or false"
        case .choice(let shown): shown.joined(separator: " ")
        case .integer(let range, _): "\(range.lowerBound)...\(range.upperBound)"
        case .positive(let limit, _): "above 0, at most \(ImportOptionSpec.shown(limit))"
        }
    }

    /// The default as a reader should see it; nil when not giving the option means "not set".
    var defaultText: String? {
        switch self {
        case .text, .choice: nil
        case .flag(let on): on ? "true" : "false"
        case .integer(_, let value): String(value)
        case .positive(_, let value): ImportOptionSpec.shown(value)
        }
    }
}
