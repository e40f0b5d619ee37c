import ChainImport
import Foundation

/// One setting of `oncue serve`, declared once: its flag, its environment variable, its type (and so its parser and
/// bounds), its default, its help and where its value lives in `ServerConfiguration`. The flag, the variable,
/// `serve --help`, README's table and the validation are all read from here (`ServerSettings`).
///
/// A flag's text and a variable's text go through the same `value(parsing:from:)`, so the two accept and refuse the
/// same values. An empty text means the default, given either way.
package struct ServerSetting<Value: Sendable>: Sendable {
    /// The flag (without its dashes; nil for a variable that has no flag), the variable, the help.
    package let declaration: OptionDeclaration
    package let type: SettingType<Value>
    package let defaultValue: Value
    /// The default as a reader should see it: the default's text, or a note where that says little
    /// (`none: the peer address`).
    package let defaultText: String
    /// A refused text is never repeated in the message: it may hold a password.
    let isSecret: Bool
    /// Whether `--print-configuration` shows it; a token file's token is shown as the admin token.
    let isPrinted: Bool
    /// The variable of the setting whose line of README's table this one shares (the other half of one thing).
    package let besideVariable: String?
    let path: any WritableKeyPath<ServerConfiguration, Value> & Sendable

    /// The value of a flag's or a variable's text; `source` (`--port`, `ONCUE_PORT`) names it in the message.
    package func value(parsing text: String, from source: String) throws(ConfigurationError) -> Value {
        guard !text.isEmpty else { return defaultValue }
        do {
            return try type.parse(text)
        } catch {
            throw ConfigurationError("\(source) \(error.reason)" + (isSecret ? "" : ", got '\(text.prefix(40))'"))
        }
    }
}

extension ServerSetting {
    /// A setting as `ServerSettings` declares it; its help says its variable, default and bounds.
    init(
        flag: String?, variable: String, type: SettingType<Value>, default defaultValue: Value, defaultNote: String? = nil,
        secret: Bool = false, printed: Bool = true, repeatable: Bool = false, summary: String, beside: (any ServerSettingDescription)? = nil,
        at path: any WritableKeyPath<ServerConfiguration, Value> & Sendable
    ) {
        let defaultText = defaultNote ?? type.format(defaultValue)
        let declaration = OptionDeclaration(
            name: variable, flag: flag, variable: variable, summary: summary,
            help: "\(summary) (\(variable); default \(defaultText); \(type.bounds)).", valueName: type.valueName,
            form: repeatable ? .repeatable : .value, section: nil, takesAnyWordAsValue: true)
        self.init(
            declaration: declaration, type: type, defaultValue: defaultValue, defaultText: defaultText, isSecret: secret, isPrinted: printed,
            besideVariable: beside?.variable, path: path)
    }
}

/// A setting whatever its type: what the table, `serve --help`, README and the resolution need.
package protocol ServerSettingDescription: DeclaredOption {
    /// What it accepts, for tests to generate values from and the docs to print.
    var bounds: SettingBounds { get }
    /// The default as a reader should see it.
    var defaultText: String { get }
    /// The variable of the setting whose line of README's table this one shares.
    var besideVariable: String? { get }
    /// Parses `text` (non-empty, or the default) and puts the value in `configuration`.
    func apply(_ text: String, from source: String, to configuration: inout ServerConfiguration) throws(ConfigurationError)
    func applyDefault(to configuration: inout ServerConfiguration)
    /// The value `configuration` holds, shown as text (secrets hidden); nil for a setting with no value of its own.
    func shownValue(in configuration: ServerConfiguration) -> String?
}

extension ServerSetting: ServerSettingDescription {
    package var bounds: SettingBounds { type.bounds }

    package func apply(_ text: String, from source: String, to configuration: inout ServerConfiguration) throws(ConfigurationError) {
        configuration[keyPath: path] = try value(parsing: text, from: source)
    }

    package func applyDefault(to configuration: inout ServerConfiguration) { configuration[keyPath: path] = defaultValue }

    package func shownValue(in configuration: ServerConfiguration) -> String? { isPrinted ? type.format(configuration[keyPath: path]) : nil }
}

extension ServerSettingDescription {
    /// The environment variable (`ONCUE_PORT`), which is also the setting's key.
    package var variable: String { declaration.name }

    /// The flag as typed (`--port`), or nil.
    package var option: String? { flag.map { "--" + $0 } }

    /// The name of the flag's value in `--help` (`--port <port>`, `--head-timeout <duration>`).
    package var valueName: String { declaration.valueName }
}

/// What a setting accepts, structured so that a test can generate values in range, on the bounds, past them and
/// malformed, and so that the docs can say it.
package enum SettingBounds: Sendable, Hashable, CustomStringConvertible {
    case integers(ClosedRange<Int>)
    /// Finite numbers in the range; `lowerExcluded` refuses the lower bound itself, as in (0, 1000].
    case numbers(ClosedRange<Double>, lowerExcluded: Bool)
    /// Durations in the range, to the nanosecond.
    case durations(ClosedRange<Duration>)
    /// One of these words, in any case.
    case choices([String])
    /// Text of a form said in words (a URL, a header name, a file).
    case form(String)

    package var description: String {
        switch self {
        case .integers(let range): "\(range.lowerBound)...\(range.upperBound)"
        case .numbers(let range, let lowerExcluded):
            "\(lowerExcluded ? "(" : "[")\(SettingText.number(range.lowerBound)), \(SettingText.number(range.upperBound))]"
        case .durations(let range): "\(SettingText.duration(range.lowerBound))...\(SettingText.duration(range.upperBound))"
        case .choices(let words): words.joined(separator: ", ")
        case .form(let words): words
        }
    }
}

/// Why a text was refused, as the end of a sentence that names the flag or variable ("must be an integer in 0…65535").
package struct SettingRefusal: Error, Sendable {
    package let reason: String
    package init(_ reason: String) { self.reason = reason }
}

/// How a setting's text becomes its value (`parse`, given a non-empty text) and how the value is shown (`format`,
/// which hides secrets).
package struct SettingType<Value: Sendable>: Sendable {
    package let valueName: String
    package let bounds: SettingBounds
    let parse: @Sendable (String) throws(SettingRefusal) -> Value
    let format: @Sendable (Value) -> String
}
