import ArgumentParser
import ChainImport

/// A table of options whose flags a command declares as one option group (`DeclaredFlags`).
protocol FlagTable {
    /// The options, in the order of help; an option without a flag is not the command line's and is left out.
    static var options: [any DeclaredOption] { get }
}

/// The flags of `Table`'s options, each declared from its `OptionDeclaration` alone: its name, help, form and section
/// come from there, so a command lists no option of its own, and each value stays text for the option's own parser
/// (the one its environment variable or query parameter goes through).
///
/// swift-argument-parser finds a group's arguments by reflecting an instance and decodes the group through `Decodable`
/// under the same labels; this type's mirror holds one `Option` or `Flag` per declaration, labelled with its key, and
/// `init(from:)` decodes each under that key.
struct DeclaredFlags<Table: FlagTable>: ParsableArguments, CustomReflectable {
    /// The options given, in the table's order, each with its text: a value as typed (repeated values joined with
    /// commas), a toggle's `true` or `false` where it is not the default.
    private(set) var given: [(declaration: OptionDeclaration, text: String)] = []

    init() {}

    /// The text given for `option`, or nil.
    subscript(option: some DeclaredOption) -> String? { given.first { $0.declaration == option.declaration }?.text }

    /// The texts given, by flag (`port`, without its dashes).
    var byFlag: [String: String] {
        Dictionary(given.compactMap { given in given.declaration.flag.map { ($0, given.text) } }) { _, last in last }
    }

    static var declarations: [OptionDeclaration] { Table.options.map(\.declaration).filter { $0.flag != nil } }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for declaration in Self.declarations {
            let key = Key(stringValue: declaration.name)
            let text: String?
            switch declaration.form {
            case .value: text = try container.decode(Option<String?>.self, forKey: key).wrappedValue
            case .repeatable:
                let values = try container.decode(Option<[String]>.self, forKey: key).wrappedValue
                text = values.isEmpty ? nil : values.joined(separator: ",")
            case .toggle(let on):
                let value = try container.decode(Flag<Bool>.self, forKey: key).wrappedValue
                text = value == on ? nil : String(value)
            }
            if let text { given.append((declaration, text)) }
        }
    }

    var customMirror: Mirror {
        Mirror(self, children: Self.declarations.map { (label: $0.name, value: $0.argument) }, displayStyle: .struct)
    }

    struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}

extension OptionDeclaration {
    /// The property wrapper a command would have declared for the option: its flag, help and form.
    fileprivate var argument: any Sendable {
        let name = NameSpecification.customLong(flag ?? name)
        let help = ArgumentHelp(help, valueName: valueName)
        let parsing: SingleValueParsingStrategy = takesAnyWordAsValue ? .unconditional : .next
        return switch form {
        case .value: Option<String?>(name: name, parsing: parsing, help: help)
        case .repeatable:
            Option<[String]>(wrappedValue: [], name: name, parsing: takesAnyWordAsValue ? .unconditionalSingleValue : .singleValue, help: help)
        case .toggle(true): Flag(wrappedValue: true, name: name, inversion: .prefixedNo, help: help)
        case .toggle(false): Flag(wrappedValue: false, name: name, help: help)
        }
    }
}
