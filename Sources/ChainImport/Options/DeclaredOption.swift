/// How one option of a command is said: its key, its flag, its environment variable, its help. Server settings
/// (`ServerSetting`) and import options (`ImportOptionSpec`) each hold one, built from their own declaration, and the
/// command line declares its flags from these alone (`DeclaredFlags` in `oncue`): an option is written once, and its
/// flag, variable and help can only say what its declaration says.
package struct OptionDeclaration: Sendable, Hashable {
    /// How the command line takes the option.
    package enum Form: Sendable, Hashable {
        /// A flag and its value (`--port 8080`).
        case value
        /// A flag whose values add up, joined with commas as its variable lists them (`--trusted-proxy A --trusted-proxy B`).
        case repeatable
        /// A flag alone; one on by default is turned off with `--no-` (`--no-brand-catalogue`).
        case toggle(default: Bool)
    }

    /// The option's key, unique in its table: an import option's snake_case name (its query parameter), a server
    /// setting's variable.
    package let name: String
    /// The long flag without its dashes (`network-column`); nil when the command line does not take the option.
    package let flag: String?
    /// The environment variable that may give it instead of the flag.
    package let variable: String?
    /// What it does, a phrase without its final full stop (the docs' tables).
    package let summary: String
    /// The flag's help, as `--help` prints it.
    package let help: String
    /// The name of the flag's value in help (`--port <port>`).
    package let valueName: String
    package let form: Form
    /// The help section the flag is listed under; nil: the command's own options.
    package let section: String?
    /// Whatever follows the flag is its value, `-1` included, so that the option's own parser says what it takes where
    /// the argument parser would have read an option and called the value missing.
    package let takesAnyWordAsValue: Bool

    package init(
        name: String, flag: String?, variable: String?, summary: String, help: String, valueName: String, form: Form, section: String?,
        takesAnyWordAsValue: Bool
    ) {
        (self.name, self.flag, self.variable, self.summary, self.help) = (name, flag, variable, summary, help)
        (self.valueName, self.form, self.section, self.takesAnyWordAsValue) = (valueName, form, section, takesAnyWordAsValue)
    }
}

/// An option with a declaration: what a command line's table of flags is made of.
package protocol DeclaredOption: Sendable {
    var declaration: OptionDeclaration { get }
}

extension DeclaredOption {
    /// The key (`OptionDeclaration.name`).
    package var name: String { declaration.name }
    package var flag: String? { declaration.flag }
    package var summary: String { declaration.summary }
}
