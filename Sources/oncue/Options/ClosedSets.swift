import ArgumentParser
import TraceReplay

/// The closed sets of values the CLI takes, each parsed once by ArgumentParser: a wrong value is a usage error that
/// lists the right ones, and `--help` shows them.

/// The phone a replay simulates by default.
enum PhoneProfile: String, CaseIterable, ExpressibleByArgument {
    case ios, android, ideal
}
