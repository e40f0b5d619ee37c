import ArgumentParser
import ChainImport

extension ImportOptionSpec.Refusal {
    /// The refusal as the command line says it, naming the flag.
    var usageError: ValidationError {
        ValidationError("\(ImportOptionTable.option(named: option)?.flagName ?? option) \(reason)")
    }
}
