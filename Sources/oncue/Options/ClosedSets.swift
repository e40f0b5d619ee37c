import ArgumentParser
import ChainImport
import TraceReplay

/// The closed sets of values the CLI takes, each parsed once by ArgumentParser: a wrong value is a usage error that
/// lists the right ones, and `--help` shows them.

extension TextEncoding: ExpressibleByArgument {
    /// The usual spellings (`utf-8`, `UTF8`, `cp1252`, `latin-1`, …).
    public init?(argument: String) { self.init(name: argument) }

    public static var allValueStrings: [String] { ["utf-8", "windows-1252", "latin-1"] }
}

/// The phone a replay simulates by default.
enum PhoneProfile: String, CaseIterable, ExpressibleByArgument {
    case ios, android, ideal
}
