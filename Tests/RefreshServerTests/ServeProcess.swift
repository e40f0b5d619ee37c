import Foundation
import Synchronization
import TestSupport
import Testing

/// The real `oncue serve` binary as a child process, as an operator runs it: for what only a process shows
/// (signals, exit codes, real sockets held open by slow clients).
final class ServeProcess {
    let process = Process()
    let port: Int
    private let output = SharedText()
    private let stderr = Pipe()

    /// The `oncue` executable the tests run (`OncueExecutable`).
    static var binary: URL? { OncueExecutable.url }

    /// Starts `oncue serve --db STORE ARGS…` on a free port and waits until `/readyz` answers 200.
    init(store: String, arguments: [String] = [], environment: [String: String] = [:]) async throws {
        let binary = try #require(Self.binary, "build the oncue executable first (swift build)")
        process.executableURL = binary
        process.arguments = ["serve", "--db", store, "--host", "127.0.0.1", "--port", "0", "--log-level", "info"] + arguments
        process.environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"].merging(environment) { $1 }
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        let output = self.output
        stderr.fileHandleForReading.readabilityHandler = { handle in
            let chunk = String(decoding: handle.availableData, as: UTF8.self)
            output.text.withLock { $0 += chunk }
        }
        try process.run()
        // The port is announced on stderr ("listening address=127.0.0.1:PORT").
        var port: Int?
        let process = self.process
        _ = try await eventually {
            port = output.text.withLock { text in
                text.range(of: "127.0.0.1:").flatMap { r in Int(text[r.upperBound...].prefix { $0.isNumber }) }
            }
            return port != nil || !process.isRunning
        }
        guard let port else {
            process.terminate()
            throw ServeProcessError.noPort(output.text.withLock { $0 })
        }
        self.port = port
        let ready = try await eventually { RawConnection.get(port: port, "/readyz")?.hasPrefix("HTTP/1.1 200") == true }
        guard ready else {
            process.terminate()
            throw ServeProcessError.notReady(output.text.withLock { $0 })
        }
    }

    deinit {
        stderr.fileHandleForReading.readabilityHandler = nil
        if process.isRunning { process.terminate() }
    }

    var log: String { output.text.withLock { $0 } }

    func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the process to end; the seconds it took, or nil if it still runs after `limit`.
    func waitForExit(within limit: Duration) async throws -> Duration? {
        let started = ContinuousClock.now
        while process.isRunning, ContinuousClock.now - started < limit { try await Task.sleep(for: .milliseconds(20)) }
        return process.isRunning ? nil : ContinuousClock.now - started
    }

    /// A counter from `/metrics`, summed over the samples whose line contains `filter`.
    func metric(_ name: String, where filter: String = "") -> Double {
        let text = RawConnection.get(port: port, "/metrics") ?? ""
        return text.split(separator: "\n").filter { $0.hasPrefix(name) && (filter.isEmpty || $0.contains(filter)) }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0, +)
    }
}

/// The server's standard error as it arrives, shared with the pipe's reader.
final class SharedText: Sendable {
    let text = Mutex("")
}

enum ServeProcessError: Error {
    case noPort(String)
    case notReady(String)
}
