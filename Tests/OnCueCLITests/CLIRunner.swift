import Foundation
import TestSupport

/// Runs the built `oncue` executable (`.build/debug/oncue`, or `ONCUE_BIN`) and captures its output.
struct CLIRunner {
    typealias Result = ChildProcessResult

    static var binary: URL {
        if let env = ProcessInfo.processInfo.environment["ONCUE_BIN"] { return URL(fileURLWithPath: env) }
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return repo.appendingPathComponent(".build/debug/oncue")
    }

    /// Runs the binary with `arguments`; `environment` entries are added to (or replace) this process's. The wait is
    /// off the cooperative pool (`ChildProcess`).
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Result {
        let merged = environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { $1 }
        return try await ChildProcess.run(binary, arguments, environment: merged)
    }
}
