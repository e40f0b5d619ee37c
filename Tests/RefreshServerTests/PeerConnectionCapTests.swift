import Foundation
import TestSupport
import Testing

/// One address cannot take the places every other client needs: past its share of open connections, or of
/// connections still without a first head, a new connection is closed as it is accepted; trusted proxies are exempt.
/// Loopback gives each test client its own address (127.0.0.2, .3, …).
@Suite("connections per client address", .serialized, .blocking)
struct PeerConnectionCapTests {
    static let healthz = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"

    /// Opens `count` connections from `source`, each sending `first` (or nothing), and returns them once the server
    /// has decided on each (answered, held or closed: every one counted in `refused` or holding a place).
    func open(_ count: Int, from source: String, sending first: String?, server: ServeProcess) throws -> [RawConnection] {
        try (0..<count).map { _ in
            let c = try RawConnection(port: server.port, from: source)
            if let first { try c.write(first) }
            return c
        }
    }

    @Test("a slow client's headless connections and a busy one's open ones are capped per address; others are answered")
    func capsPerAddress() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let server = try await ServeProcess(
            store: store.path,
            arguments: ["--max-connections-per-address", "20", "--max-pending-heads-per-address", "8", "--trusted-proxy", "127.0.0.4"],
            environment: ["ONCUE_RATE_LIMIT_RPS": "0"])
        // A slowloris from 127.0.0.2: 100 connections that never send a head. Eight are held (until the head
        // timeout), 92 closed as accepted.
        let slow = try open(100, from: "127.0.0.2", sending: nil, server: server)
        #expect(try await eventually(within: .seconds(20)) { server.metric("oncue_connections_refused_total", where: "per_address") == 92 })
        #expect(slow.filter(\.isOpen).count == 8)
        // Meanwhile another client is answered at once.
        let other = try RawConnection(port: server.port, from: "127.0.0.3")
        try other.write(Self.healthz)
        #expect(other.readResponse().hasPrefix("HTTP/1.1 200"))

        // A busy client from 127.0.0.5 whose connections each carry a request and stay alive: 20 held, 10 refused.
        var busy = try open(30, from: "127.0.0.5", sending: Self.healthz, server: server)
        #expect(try await eventually(within: .seconds(20)) { server.metric("oncue_connections_refused_total", where: "per_address") == 102 })
        var answered = busy.filter { $0.isOpen }
        busy = []
        #expect(answered.count == 20)
        for c in answered { #expect(c.readResponse().hasPrefix("HTTP/1.1 200")) }
        // Once five close, the address may open five again.
        let before = server.metric("oncue_connections_open", where: " ")
        answered.removeFirst(5)
        #expect(try await eventually(within: .seconds(20)) { server.metric("oncue_connections_open", where: " ") <= before - 5 })
        let again = try open(5, from: "127.0.0.5", sending: Self.healthz, server: server)
        for c in again { #expect(c.readResponse().hasPrefix("HTTP/1.1 200")) }
        #expect(server.metric("oncue_connections_refused_total", where: "per_address") == 102)

        // A trusted proxy carries many clients: 40 connections from it, all held.
        let proxied = try open(40, from: "127.0.0.4", sending: Self.healthz, server: server)
        for c in proxied { #expect(c.readResponse().hasPrefix("HTTP/1.1 200")) }
        #expect(server.metric("oncue_connections_refused_total", where: "per_address") == 102)
        withExtendedLifetime((slow, answered, again, proxied)) {}
    }
}
