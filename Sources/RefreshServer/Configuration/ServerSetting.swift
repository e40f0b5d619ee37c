import Foundation

/// One setting of `oncue serve`, declared once: its flag, its environment variable, its type (and so its parser and
/// bounds), its default and its help. The flag, the variable, `serve --help`, README's table and the validation are
/// all read from here (`ServerSettings`).
///
/// A flag's text and a variable's text go through the same `value(parsing:from:)`, so the two accept and refuse the
/// same values. An empty text means the default, given either way.
package struct ServerSetting<Value: Sendable>: Sendable {
    /// The long flag without its dashes (`port` for `--port`); nil for a variable that has no flag.
    package let flag: String?
    /// The environment variable (`ONCUE_PORT`).
    package let variable: String
    /// What it sets, as a phrase that begins with a capital and ends without a full stop (the help of its flag).
    package let summary: String
    package let type: SettingType<Value>
    package let defaultValue: Value
    /// Said instead of the default's text where that says little (`none: the peer address`).
    let defaultNote: String?
    /// A refused text is never repeated in the message: it may hold a password.
    let isSecret: Bool
    let write: @Sendable (inout ServerConfiguration, Value) -> Void
    /// The value a configuration holds, to print it; nil for a setting with no value of its own (a token file, whose
    /// token is the admin token's).
    let read: (@Sendable (ServerConfiguration) -> Value)?

    init(
        flag: String?,
        variable: String,
        type: SettingType<Value>,
        default defaultValue: Value,
        defaultNote: String? = nil,
        secret: Bool = false,
        summary: String,
        read: (@Sendable (ServerConfiguration) -> Value)?,
        write: @escaping @Sendable (inout ServerConfiguration, Value) -> Void
    ) {
        self.flag = flag
        self.variable = variable
        self.type = type
        self.defaultValue = defaultValue
        self.defaultNote = defaultNote
        self.isSecret = secret
        self.summary = summary
        self.read = read
        self.write = write
    }

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

/// A setting whatever its type: what the table, `serve --help`, README and the resolution need.
package protocol ServerSettingDescription: Sendable {
    var flag: String? { get }
    var variable: String { get }
    var summary: String { get }
    /// The name of the flag's value in `--help` (`--port <port>`, `--head-timeout <duration>`).
    var valueName: String { get }
    /// What it accepts, for tests to generate values from and the docs to print.
    var bounds: SettingBounds { get }
    /// The default as a reader should see it.
    var defaultText: String { get }
    /// Parses `text` (non-empty, or the default) and puts the value in `configuration`.
    func apply(_ text: String, from source: String, to configuration: inout ServerConfiguration) throws(ConfigurationError)
    func applyDefault(to configuration: inout ServerConfiguration)
    /// The value `configuration` holds, shown as text (secrets hidden); nil for a setting with no value of its own.
    func shownValue(in configuration: ServerConfiguration) -> String?
}

extension ServerSetting: ServerSettingDescription {
    package var valueName: String { type.valueName }
    package var bounds: SettingBounds { type.bounds }
    package var defaultText: String { defaultNote ?? type.format(defaultValue) }

    package func apply(_ text: String, from source: String, to configuration: inout ServerConfiguration) throws(ConfigurationError) {
        write(&configuration, try value(parsing: text, from: source))
    }

    package func applyDefault(to configuration: inout ServerConfiguration) { write(&configuration, defaultValue) }

    package func shownValue(in configuration: ServerConfiguration) -> String? { read.map { type.format($0(configuration)) } }
}

extension ServerSettingDescription {
    /// The flag as typed (`--port`), or nil.
    package var option: String? { flag.map { "--" + $0 } }

    /// The help of the flag: what it sets, its variable, default and bounds.
    package var help: String { "\(summary) (\(variable); default \(defaultText); \(bounds))." }
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
