/// A command that ran and could not do what it was asked — a location, network or key that is not there — as opposed
/// to bad usage: printed as `error: …` and exit 1 (ArgumentParser's `ValidationError` is bad usage: exit 2 and the
/// usage line). Every command follows that rule; `ExitCodeRuleTests` holds them to it.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
