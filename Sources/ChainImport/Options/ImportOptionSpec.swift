import Foundation
import LocationStore

/// One option of an import, declared once: its name, what it accepts, what it does and where it may be given. The
/// `oncue import` flags, the query parameters of `POST /admin/imports`, their help and docs/importing.md's table all
/// come from `ImportOptionTable`, and both surfaces parse a value's text through the same `parse`, so they accept and
/// refuse the same values with the same words.
package struct ImportOptionSpec: DeclaredOption {
    /// What a value's text may be.
    package enum Kind: Sendable, Equatable {
        /// 1 to 200 characters, no control characters (they would reach the log and the store).
        case text
        /// `true`/`false` (also `1`/`0`, `yes`/`no`); on the command line a flag, inverted with `--no-` when on by default.
        case flag(default: Bool)
        /// One of these spellings (more may be accepted: `utf8` for `utf-8`); the first listed is how docs show them.
        case choice([String])
        case integer(ClosedRange<Int>, default: Int)
        /// A finite number in the range, exclusive of its lower end (a rate or a time above 0).
        case positive(upTo: Double, default: Double)
    }

    /// Where an option may be given. Nothing a request could use to reach the server's own files or network is taken
    /// from a request: the mapping comes in the body, and a geocoder is a name the server's settings define.
    package enum Surface: Sendable, Equatable {
        /// A flag and a query parameter of the same name and value.
        case both
        /// Only a request names it; the command line knows it otherwise (said in the text).
        case requestOnly(because: String)
        /// Given on both, but not as the same text: the command line names a file, a request sends the content as the
        /// body's part of this name (`multipart/form-data`).
        case fileOrBodyPart
    }

    /// The name in snake_case (the query parameter, and with dashes the flag: `network_column`, `--network-column`),
    /// the flag, the help and the section `oncue import --help` lists it under.
    package let declaration: OptionDeclaration
    package let kind: Kind
    package let surface: Surface
    /// Earlier names still accepted, for one release, as the same option.
    package let deprecatedNames: [String]
    let write: @Sendable (inout ImportOptionValues, ParsedValue) -> Void

    /// The command line's flag (`--network-column`), also of an option the command line does not take: messages name
    /// an option so.
    package var flagName: String { "--" + Self.flag(name) }

    static func flag(_ name: String) -> String { name.replacingOccurrences(of: "_", with: "-") }

    /// A value as its kind reads it.
    enum ParsedValue: Sendable, Equatable {
        case text(String)
        case flag(Bool)
        case integer(Int)
        case number(Double)
    }

    /// What an option's text failed; the surface names the option (a flag or a query parameter) before `reason`.
    package struct Refusal: Error, Equatable, Sendable {
        /// The option's name (snake_case).
        package let option: String
        /// A phrase after the option's name: "must be true or false", "is not an option of an import".
        package let reason: String
        /// The value is well-formed but needs another option that is not given (a request's 422, not 400).
        package var needsAnother = false
    }

    /// Reads `text` as this option's kind.
    func parse(_ text: String) throws(Refusal) -> ParsedValue {
        switch kind {
        case .text:
            guard !text.isEmpty, !FieldLimits.exceeds(text, 200) else { throw refusal("must be 1 to 200 characters") }
            guard !text.unicodeScalars.contains(where: FieldLimits.isControl) else { throw refusal("must not hold control characters") }
            return .text(text)
        case .flag:
            switch text.lowercased() {
            case "true", "1", "yes": return .flag(true)
            case "false", "0", "no": return .flag(false)
            default: throw refusal("must be true or false")
            }
        case .choice(let shown):
            guard let canonical = Self.choose(text, for: name, shown: shown) else {
                throw refusal("must be one of \(shown.joined(separator: " ")), got '\(text.prefix(20))'")
            }
            return .text(canonical)
        case .integer(let range, _):
            guard let value = Int(text), range.contains(value) else {
                throw refusal("must be a whole number in \(range.lowerBound)...\(range.upperBound), got '\(text.prefix(20))'")
            }
            return .integer(value)
        case .positive(let limit, _):
            guard let value = Double(text), value.isFinite, value > 0, value <= limit else {
                throw refusal("must be a number above 0 and at most \(Self.shown(limit)), got '\(text.prefix(20))'")
            }
            return .number(value)
        }
    }

    func refusal(_ reason: String) -> Refusal { Refusal(option: name, reason: reason) }

    /// A choice's canonical spelling: the ones shown, and the usual others of an encoding or a delimiter.
    private static func choose(_ text: String, for name: String, shown: [String]) -> String? {
        switch name {
        case ImportOptionTable.encoding.name: return TextEncoding(name: text).map(\.shownName)
        case ImportOptionTable.delimiter.name: return text == "\t" || text == "\\t" ? "tab" : shown.contains(text) ? text : nil
        default: return shown.contains(text) ? text : nil
        }
    }

    package static func shown(_ number: Double) -> String {
        number == number.rounded() ? String(Int(number)) : String(number)
    }
}

extension TextEncoding {
    /// The spelling the docs and the table show (`latin-1` for ISO 8859-1).
    package var shownName: String { self == .latin1 ? "latin-1" : rawValue }
}
