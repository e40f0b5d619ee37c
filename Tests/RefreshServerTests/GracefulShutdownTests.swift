import Foundation
import Synchronization
import TestSupport
import Testing

/// Runs the real `oncue serve` binary as a child process, as an operator would.
@Suite("oncue serve shuts down gracefully", .serialized, .blocking)
struct GracefulShutdownTests {
    static var oncueBinary: URL? { ServeProcess.binary }

    @Test(arguments: [SIGTERM, SIGINT])
    func signalDuringARequestFinishesItAndExitsZero(signal: Int32) async throws {
        let binary = try #require(Self.oncueBinary, "build the oncue executable first (swift build)")
        let store = try TestStore()
        defer { store.remove() }
        let process = Process()
        process.executableURL = binary
        // Deadlines far beyond the test's steps: a loaded machine may take seconds between sending the body's halves,
        // and a 408 or a closed connection would then be the deadline's answer, not the graceful shutdown's.
        process.arguments = [
            "serve", "--db", store.path, "--host", "127.0.0.1", "--port", "0", "--log-level", "notice",
            "--body-timeout", "10m", "--shutdown-timeout", "10m",
        ]
        process.environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        let output = Mutex("")
        stderr.fileHandleForReading.readabilityHandler = { handle in
            let chunk = String(decoding: handle.availableData, as: UTF8.self)
            output.withLock { $0 += chunk }
        }
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // The port is announced on stderr ("listening address=127.0.0.1:PORT").
        var port: Int?
        _ = try await eventually {
            port = output.withLock { text in
                text.range(of: "127.0.0.1:").flatMap { r in Int(text[r.upperBound...].prefix { $0.isNumber }) }
            }
            return port != nil
        }
        let livePort = try #require(port, "no listening line: \(output.withLock { $0 })")
        let ready = try await eventually { RawConnection.get(port: livePort, "/readyz")?.hasPrefix("HTTP/1.1 200") == true }
        try #require(ready, "the server never became ready: \(output.withLock { $0 })")

        // A request whose body is half sent is in flight when the signal arrives.
        let body = #"{"lat": 37.7749, "lon": -122.4194, "user_networks": ["costco"]}"#
        let connection = try RawConnection(port: livePort)
        let head =
            "POST /v1/region-refresh HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        try connection.write(head + String(body.prefix(20)))
        try await Task.sleep(for: .milliseconds(200))
        kill(process.processIdentifier, signal)
        // New connections are no longer accepted once shutdown began (whenever the loaded machine gets to it).
        let refusing = try await eventually(within: .seconds(10)) { RawConnection.get(port: livePort, "/healthz") == nil }
        #expect(refusing, "the server still accepted new connections 10 s after the signal")
        #expect(process.isRunning, "the server exited with a request in flight")
        try connection.write(String(body.dropFirst(20)))
        let response = connection.readResponse()
        #expect(response.hasPrefix("HTTP/1.1 200"), "in-flight request got: \(response.prefix(200))")
        #expect(response.contains("loc_costco_sf"))

        let exited = try await eventually { !process.isRunning }
        #expect(exited, "the server did not exit within 60 s of the signal")
        if !process.isRunning {
            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 0)
        }
        stderr.fileHandleForReading.readabilityHandler = nil
    }

    @Test func missingStoreExitsOneBeforeBinding() async throws {
        let binary = try #require(Self.oncueBinary, "build the oncue executable first (swift build)")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--db", "/nonexistent/store.sqlite", "--port", "0"]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
    }
}
