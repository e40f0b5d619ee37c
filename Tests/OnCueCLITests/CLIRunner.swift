import Foundation
import TestSupport

/// Runs the built `oncue` executable (`.build/debug/oncue`, or `ONCUE_BIN`) and captures its output.
struct CLIRunner {
    typealias Result = ChildProcessResult

    /// `OncueExecutable`, or where the debug build puts it (a missing binary then fails with its path).
    static var binary: URL {
        OncueExecutable.url ?? SharedDatasets.repository.appendingPathComponent(".build/debug/oncue")
    }

    /// Runs the binary with `arguments`; `environment` entries are added to (or replace) this process's. The wait is
    /// off the cooperative pool (`ChildProcess`).
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Result {
        let merged = environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { $1 }
        return try await ChildProcess.run(binary, arguments, environment: merged)
    }
}
