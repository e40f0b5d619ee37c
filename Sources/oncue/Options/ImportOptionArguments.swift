import ArgumentParser
import ChainImport

/// A flag of `oncue import` as `ImportOptionTable` declares it: its name, its help and what it accepts.
extension NameSpecification {
    static func importOption(_ name: String) -> NameSpecification {
        .customLong(String(ImportOptionTable[name].flagName.dropFirst(2)))
    }
}

extension ArgumentHelp {
    static func importOption(_ name: String) -> ArgumentHelp {
        let option = ImportOptionTable[name]
        var help = option.summary + "."
        switch option.kind {
        case .choice, .integer, .positive: help += " (\(option.accepts)" + (option.defaultText.map { "; default \($0)" } ?? "") + ")"
        case .text, .flag: break
        }
        return ArgumentHelp(help, valueName: option.valueName)
    }
}

extension ImportOptionSpec.Refusal {
    /// The refusal as the command line says it, naming the flag.
    var usageError: ValidationError {
        ValidationError("\(ImportOptionTable.option(named: option)?.flagName ?? option) \(reason)")
    }
}
