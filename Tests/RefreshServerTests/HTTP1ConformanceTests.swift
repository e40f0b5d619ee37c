import Foundation
import TestSupport
import Testing

/// What HTTP/1 requires, against the real binary: one Host on HTTP/1.1, no CONNECT tunnel, and a connection that
/// closes after the response when the request did not ask to keep it.
@Suite("HTTP/1 conformance", .serialized, .blocking)
struct HTTP1ConformanceTests {
    static func exchange(_ port: Int, _ request: String) throws -> (text: String, closed: Bool) {
        let connection = try RawConnection(port: port)
        try connection.write(request)
        return connection.readUntilClosed()
    }

    @Test("Host: none or two on HTTP/1.1 is 400 and closed; CONNECT is 405 with Allow and closed; HTTP/1.0 closes after its response")
    func conformance() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let server = try await ServeProcess(store: store.path, arguments: ["--idle-timeout", "20"], environment: ["ONCUE_RATE_LIMIT_RPS": "0"])
        let port = server.port

        let noHost = try Self.exchange(port, "GET /healthz HTTP/1.1\r\n\r\n")
        #expect(noHost.text.hasPrefix("HTTP/1.1 400") && noHost.closed, "\(noHost.text.prefix(200))")
        let twoHosts = try Self.exchange(port, "GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
        #expect(twoHosts.text.hasPrefix("HTTP/1.1 400") && twoHosts.closed, "\(twoHosts.text.prefix(200))")
        let connect = try Self.exchange(port, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
        #expect(connect.text.hasPrefix("HTTP/1.1 405") && connect.text.lowercased().contains("allow:") && connect.closed, "\(connect.text)")

        // HTTP/1.0 without keep-alive: the response, then the server closes (the idle timeout is 20 s, the read's 15 s).
        let old = try Self.exchange(port, "GET /healthz HTTP/1.0\r\n\r\n")
        #expect(old.text.hasPrefix("HTTP/1.1 200") && old.text.contains("{\"status\":\"ok\"}") && old.closed, "\(old.text)")
        #expect(old.text.lowercased().contains("connection: close"))
        // Connection: close on HTTP/1.1 too; and a keep-alive HTTP/1.1 request leaves the connection open.
        let closing = try Self.exchange(port, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(closing.closed && closing.text.contains("{\"status\":\"ok\"}"))
        let kept = try RawConnection(port: port)
        try kept.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(kept.readResponse().hasPrefix("HTTP/1.1 200"))
        try kept.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(kept.readResponse().hasPrefix("HTTP/1.1 200"), "a keep-alive connection answers its second request")
    }
}
