import Foundation

extension ImportOptionTable {
    /// The option named `name`, or whose deprecated name it is.
    package static func option(named name: some StringProtocol) -> ImportOptionSpec? {
        all.first { $0.name == name || $0.deprecatedNames.contains(String(name)) }
    }

    /// Where the options come from: a surface takes the options its `Surface` allows.
    package enum Source: Sendable { case commandLine, request }

    /// The options `given` (name or deprecated name, and text) say, each parsed by its kind, in the order given.
    /// Refused: a name that is no option of `source`, a name given twice (or with its deprecated name), a text its kind
    /// does not accept, and options that need another (`network_name_where` without `network_name_column`).
    package static func values(
        _ given: [(name: String, text: String)], from source: Source
    ) throws(ImportOptionSpec.Refusal)
        -> ImportOptionValues
    {
        var values = ImportOptionValues()
        var seen: [String: (name: String, value: ImportOptionSpec.ParsedValue)] = [:]
        for (name, text) in given {
            guard let option = option(named: name), option.isTaken(from: source) else {
                throw ImportOptionSpec.Refusal(option: String(name.prefix(64)), reason: "is not an option of an import")
            }
            let value = try option.parse(text)
            if let earlier = seen[option.name] {
                // The same name twice is a mistake; a deprecated name beside the new one may say the same (a client
                // moving over), and otherwise they contradict each other.
                guard earlier.name != name else { throw option.refusal("is given twice") }
                guard earlier.value == value else {
                    var refusal = option.refusal("and its earlier name '\(option.deprecatedNames.joined(separator: "', '"))' disagree")
                    refusal.needsAnother = true
                    throw refusal
                }
                continue
            }
            seen[option.name] = (name, value)
            if name != option.name { values.deprecatedNamesUsed.append(name) }
            option.write(&values, value)
        }
        if values.options.networkNameWhere == nil, let text = given.first(where: { option(named: $0.name)?.name == networkNameWhere.name })?.text {
            throw networkNameWhere.refusal("takes COLUMN=VALUE, got '\(text.prefix(40))'")
        }
        if values.options.networkNameWhere != nil, values.options.networkNameColumn == nil {
            var refusal = networkNameWhere.refusal("needs \(networkNameColumn.name)")
            refusal.needsAnother = true
            throw refusal
        }
        return values
    }

    /// `COLUMN=VALUE`, the column not empty.
    static func condition(_ text: String) -> (column: String, value: String)? {
        guard let eq = text.firstIndex(of: "="), eq != text.startIndex else { return nil }
        return (String(text[..<eq]), String(text[text.index(after: eq)...]))
    }
}

extension ImportOptionSpec {
    /// Whether `source` takes this option as text by its name (a mapping is a file or a body part, never such a text).
    func isTaken(from source: ImportOptionTable.Source) -> Bool {
        switch (surface, source) {
        case (.both, _): true
        case (.requestOnly, .request): true
        case (.requestOnly, .commandLine), (.fileOrBodyPart, _): false
        }
    }
}

extension ImportOptionSpec.ParsedValue {
    var text: String? { if case .text(let text) = self { text } else { nil } }
    var flag: Bool { if case .flag(let on) = self { on } else { false } }
    var integer: Int? { if case .integer(let value) = self { value } else { nil } }
    var number: Double? { if case .number(let value) = self { value } else { nil } }
}
