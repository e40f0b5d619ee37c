import Foundation

/// What a finished child process said: its exit status and everything it wrote.
public struct ChildProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs a program to completion without holding a thread of Swift's cooperative pool.
///
/// Swift Testing runs every test on the cooperative pool, which has one thread per core (two on CI). A test that waited
/// for a child with `waitUntilExit` on that pool held one of its threads for as long as the child ran, so two CLI
/// tests at once stalled every other test of the process. Here the blocking reads and the wait happen on a thread of
/// their own and the caller is resumed when the child has exited.
public enum ChildProcess {
    /// Runs `executable` with `arguments`. `environment` nil inherits this process's environment; otherwise it is the
    /// child's whole environment.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) async throws -> ChildProcessResult {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try runBlocking(executable, arguments, environment: environment) })
            }.start()
        }
    }

    private static func runBlocking(_ executable: URL, _ arguments: [String], environment: [String: String]?) throws -> ChildProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Both pipes are drained at once (stderr on a second thread), so a child that fills one while the other is
        // being read cannot block.
        let errorData = PipeDrain(err.fileHandleForReading)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = errorData.wait()
        process.waitUntilExit()
        return ChildProcessResult(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class PipeDrain: @unchecked Sendable {
    // Written once by the reading thread before `done` is signalled, read only after it: the semaphore orders them.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
        thread.start()
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}

/// The `oncue` executable the tests run: `ONCUE_BIN`, else the one built next to the test bundle, else the repository's
/// debug build (`swift build` builds it with the tests).
public enum OncueExecutable {
    public static var url: URL? {
        var candidates: [URL] = []
        if let given = ProcessInfo.processInfo.environment["ONCUE_BIN"] { candidates.append(URL(fileURLWithPath: given)) }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("oncue"))
        candidates.append(SharedDatasets.repository.appendingPathComponent(".build/debug/oncue"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    public static var path: String? { url?.path }
}
