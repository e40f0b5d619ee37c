import ArgumentParser
import ChainImport
import CommandLineOutput
import Foundation
import LocationStore
import StoreOpening

/// `--db`: the store every command that reads or writes one opens, the same way everywhere (else `ONCUE_DB`).
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The store: a SQLite file or a postgres:// URL (default: $ONCUE_DB).", valueName: "file-or-url"))
    var db: String?

    /// The store named by `--db`, else `ONCUE_DB`; a bad URL is a usage error that never repeats its password.
    func address(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> StoreAddress {
        let text = db ?? environment["ONCUE_DB"] ?? ""
        guard !text.isEmpty else { throw ValidationError("no store: pass --db FILE or --db postgres://… (or set ONCUE_DB)") }
        do { return try StoreAddress(text) } catch { throw ValidationError(error.description) }
    }

    /// Opens the store for `body` and closes it afterwards, whatever happens.
    @discardableResult
    func withStore<T>(readOnly: Bool = false, _ body: (any LocationStore) async throws -> T) async throws -> T {
        try await address().open(readOnly: readOnly).closing(body)
    }

    /// The `db` subcommands took the store as a positional argument before `--db` existed; it still works for one
    /// release, with a line on standard error. Both at once is a usage error. The positional is read with
    /// `.allUnrecognized`, so a mistyped option arrives here too and is reported as unknown.
    mutating func adoptPositional(_ words: [String], command: String, of type: any ParsableCommand.Type) throws {
        try UnknownOption.check(words, of: type)
        let files = words.filter { $0 != "--" }
        guard let file = files.first else { return }
        guard files.count == 1 else {
            throw ValidationError("unexpected arguments: \(files.map { $0.forMessage() }.joined(separator: " "))")
        }
        guard db == nil else { throw ValidationError("give the store once: --db \(db!) or the positional \(file), not both") }
        FileHandleOutput.standardError.write("oncue: `oncue db \(command) FILE` is deprecated; use `oncue db \(command) --db FILE`\n")
        db = file
    }
}
