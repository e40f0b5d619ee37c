import ArgumentParser
import ChainImport
import CommandLineOutput

/// `oncue`: the region-refresh engine, its store, importer, server and simulator.
struct OnCue: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "oncue",
        abstract: "Geofence region-refresh engine and simulator.",
        discussion: """
            Exit codes: 0 success, 1 a runtime failure (a store, file, network or location that is not there; an import \
            the checks refused), 2 bad usage (an unknown option, a value out of range).

            Example:
              oncue db init --db stores.sqlite
              oncue nearest --db stores.sqlite 40.7128 -74.0060 --limit 5
            """,
        version: OnCue.version,
        subcommands: [
            DB.self, Nearest.self, Refresh.self, Serve.self, Replay.self, Import.self, Imports.self, Export.self, Networks.self, Locations.self,
            Keys.self,
            Audit.self,
        ]
    )
}

extension OnCue {
    /// The release, printed by `oncue --version`; the store's schema version is `oncue db stats`'s.
    static let version = "0.10.0"
}

@main
enum Main {
    static func main() async {
        do {
            var command = try OnCue.parseAsRoot()
            if var async = command as? any AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
        } catch {
            exit(with: error)
        }
    }

    /// ArgumentParser reports usage errors with 64 (EX_USAGE); OnCue promises 2 for bad usage and 1 for failures.
    static func exit(with error: any Error) -> Never {
        let code = OnCue.exitCode(for: error)
        if code == .success || error is CleanExit {
            OnCue.exit(withError: error)
        }
        if code == .validationFailure {
            let message = OnCue.fullMessage(for: error)
            FileHandleOutput.standardError.write(message.forMessage(limit: 4_000, keepingLineBreaks: true) + "\n")
            OnCue.exit(withError: ExitCode(2))
        }
        if let exitCode = error as? ExitCode { OnCue.exit(withError: exitCode) }
        // Errors quote values from files and stores: written out so that they cannot drive the terminal.
        FileHandleOutput.standardError.write("error: \(String(describing: error).forMessage(limit: 2_000, keepingLineBreaks: true))\n")
        OnCue.exit(withError: ExitCode(1))
    }
}
