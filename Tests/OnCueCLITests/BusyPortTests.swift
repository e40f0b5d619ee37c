import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `oncue serve` on an address it cannot bind says so in one line, before it loads anything.
@Suite struct BusyPortTests {
    @Test func aBusyPortIsOneLineAndExitOne() async throws {
        // Hold a port: a listening socket on 127.0.0.1, port chosen by the kernel.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(bound == 0 && listen(fd, 1) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let port = Int(UInt16(bigEndian: address.sin_port))

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-port-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("s.sqlite").path
        #expect(try await CLIRunner.run(["db", "init", "--db", store]).status == 0)
        // Bounded: a server that failed to notice would otherwise run until killed.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["60", CLIRunner.binary.path, "serve", "--db", store, "--port", String(port)]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(stderr)")
        #expect(stderr.contains("port \(port) on 127.0.0.1 is in use"), "\(stderr)")
        #expect(stderr.split(separator: "\n").count == 1 && !stderr.contains("errno"), "\(stderr)")
    }
}
