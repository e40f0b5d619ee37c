import Foundation
import TestSupport
import Testing

/// Slow, broken and departing clients against the real binary: each is cut at its limit, answered as its own fault
/// (4xx, never 5xx or an error in the log), and none of them keeps the server from answering others or from exiting.
@Suite("slow and broken clients", .serialized, .blocking)
struct SlowClientTests {
    static let body = #"{"lat": 37.7749, "lon": -122.4194, "user_networks": ["costco"]}"#
    static let head = "POST /v1/region-refresh HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"

    @Test("hundreds of slow connections are cut at their limits while a normal request is answered without waiting for them")
    func slowConnectionsAreCut() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let server = try await ServeProcess(
            // One address (this test's) may hold all 300: the per-address caps have a test of their own.
            store: store.path,
            arguments: [
                "--head-timeout", "1", "--body-timeout", "1.5", "--max-connections-per-address", "1000", "--max-pending-heads-per-address", "1000",
            ],
            environment: ["ONCUE_RATE_LIMIT_RPS": "0"])
        let opened = ContinuousClock.now
        var slow: [RawConnection] = []
        for i in 0..<300 {
            let connection = try RawConnection(port: server.port)
            if i % 2 == 0 {
                try connection.write("POST /v1/region-refresh HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-")  // half a head
            } else {
                try connection.write(Self.head + "Content-Length: 50\r\n\r\n{")  // one byte of body
            }
            slow.append(connection)
        }
        // Meanwhile a phone asks as usual, several times (the median, since a debug build on a shared machine has pauses).
        var times: [Duration] = []
        for _ in 0..<21 {
            let started = ContinuousClock.now
            let connection = try RawConnection(port: server.port)
            try connection.write(Self.head + "Content-Length: \(Self.body.utf8.count)\r\nConnection: close\r\n\r\n" + Self.body)
            let response = connection.readResponse()
            times.append(ContinuousClock.now - started)
            #expect(response.hasPrefix("HTTP/1.1 200"), "\(response.prefix(120))")
        }
        // A request queued behind the slow connections would wait at least their 1 s head timeout; answered beside
        // them it takes milliseconds, or a few hundred on a loaded machine.
        let median = times.sorted()[times.count / 2]
        #expect(median < .seconds(1), "a normal request took \(median) (median) beside 300 slow connections")
        let openedAndAsked = ContinuousClock.now - opened

        var answers: [String: Int] = [:]
        for connection in slow {
            let (text, closed) = connection.readUntilClosed()
            #expect(closed, "a slow connection was still open")
            answers[String(text.prefix(12)), default: 0] += 1
        }
        // Cut at 1 s and 1.5 s, every slow connection is closed by the time they are all open and the normal requests
        // done, or soon after; the default limits (10 s, 30 s) would hold them past this bound whenever that took < 6 s.
        let elapsed = ContinuousClock.now - opened
        #expect(elapsed < max(.seconds(6), openedAndAsked + .seconds(4)), "the slow connections were cut only after \(elapsed)")
        #expect(answers["HTTP/1.1 408"] == 300, "\(answers)")
        #expect(server.metric("oncue_connections_timed_out_total", where: "phase=\"head\"") == 150)
        #expect(server.metric("oncue_connections_timed_out_total", where: "phase=\"body\"") == 150)
        #expect(server.metric("oncue_http_requests_total", where: "status=\"500\"") == 0)
        #expect(!server.log.contains(" error "), "\(server.log.split(separator: "\n").filter { $0.contains(" error ") }.prefix(3))")
    }

    @Test("unauthenticated slow uploads are answered and closed at once, never held for the upload deadline")
    func unauthenticatedUploadsAreNotHeld() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let server = try await ServeProcess(
            store: store.path, environment: ["ONCUE_RATE_LIMIT_RPS": "0", "ONCUE_ADMIN_TOKEN": "the-right-token-0123456789"])
        // A huge declared body, two bytes sent: the default deadlines would hold these 30 s (body) or 15 min (upload).
        let heads = [
            ("POST /admin/imports HTTP/1.1\r\n", "HTTP/1.1 401"),
            ("POST /admin/imports?network=x HTTP/1.1\r\nAuthorization: Bearer a-wrong-token-0123456789\r\n", "HTTP/1.1 403"),
            ("POST /admin/importsX HTTP/1.1\r\n", "HTTP/1.1 4"),  // no such route: 401 or 404, either way at once
        ]
        var slow: [(RawConnection, String)] = []
        for i in 0..<150 {
            let (head, expected) = heads[i % heads.count]
            let connection = try RawConnection(port: server.port)
            try connection.write(head + "Host: 127.0.0.1\r\nContent-Type: text/csv\r\nContent-Length: 100000000\r\n\r\nab")
            slow.append((connection, expected))
        }
        #expect(RawConnection.get(port: server.port, "/healthz")?.hasPrefix("HTTP/1.1 200") == true)
        // Each is answered and closed: the read ends well within its 15 s receive timeout, not at a deadline.
        for (connection, expected) in slow {
            let (text, closed) = connection.readUntilClosed()
            #expect(closed, "an unauthenticated upload's connection was held open")
            #expect(text.hasPrefix(expected), "\(text.prefix(60))")
            #expect(text.lowercased().contains("connection: close"))
        }
        #expect(server.metric("oncue_connections_timed_out_total", where: "phase=\"body\"") == 0)
    }

    @Test("a client that leaves mid-body or sends a bad chunk size is a 4xx, never a 5xx or an error in the log")
    func brokenClientsAreClientFaults() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let server = try await ServeProcess(store: store.path, environment: ["ONCUE_RATE_LIMIT_RPS": "0"])
        for _ in 0..<20 {
            let leaving = try RawConnection(port: server.port)
            try leaving.write(Self.head + "Content-Length: 50\r\n\r\n{\"lat\"")
            try await Task.sleep(for: .milliseconds(20))
        }  // each connection is closed as it goes out of scope
        let chunked = try RawConnection(port: server.port)
        try chunked.write(Self.head + "Transfer-Encoding: chunked\r\n\r\nzz\r\n")
        let (answer, _) = chunked.readUntilClosed()
        #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(200))")
        try await Task.sleep(for: .milliseconds(300))
        #expect(server.metric("oncue_http_requests_total", where: "status=\"500\"") == 0)
        #expect(server.metric("oncue_http_requests_total", where: "status=\"400\"") >= 1)
        #expect(!server.log.contains(" error "), "\(server.log.split(separator: "\n").filter { $0.contains(" error ") }.prefix(3))")
    }

    @Test("SIGTERM while a client holds half a body: the process exits 0 at the shutdown deadline")
    func shutdownDeadline() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let server = try await ServeProcess(store: store.path, arguments: ["--body-timeout", "120", "--shutdown-timeout", "1"])
        let holder = try RawConnection(port: server.port)
        try holder.write(Self.head + "Content-Length: 50\r\n\r\n{\"lat\"")
        try await Task.sleep(for: .milliseconds(200))
        server.signal(SIGTERM)
        // Held to the body timeout it would take 120 s, to the default shutdown deadline 15 s.
        let took = try await server.waitForExit(within: .seconds(60))
        let seconds = try #require(took, "the server still ran 60 s after SIGTERM")
        #expect(seconds < .seconds(10))
        #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0)
    }

    @Test("a server full of idle keep-alive connections closes the one idle longest and answers a new connection at once")
    func idleConnectionsMakeRoom() async throws {
        let store = try TestStore()
        defer { store.remove() }
        // Four places, one of them the reserve: the fourth connection already makes room.
        let server = try await ServeProcess(store: store.path, arguments: ["--max-connections", "4", "--idle-timeout", "60"])
        var idle: [RawConnection] = []
        for _ in 0..<4 {
            let connection = try RawConnection(port: server.port)
            try connection.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(connection.readResponse().hasPrefix("HTTP/1.1 200"))
            idle.append(connection)
        }
        let started = ContinuousClock.now
        let check = try RawConnection(port: server.port)
        try check.write("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let response = check.readResponse()
        let waited = ContinuousClock.now - started
        #expect(response.hasPrefix("HTTP/1.1 200"))
        // Far under the 60 s an idle connection would otherwise hold its place.
        #expect(waited < .seconds(5), "a health check beside idle connections waited \(waited)")
        // The oldest were closed, in order, with nothing lost: each had its answer.
        #expect(idle[0].readUntilClosed().closed)
        #expect(idle[1].readUntilClosed().closed)
        #expect(server.metric("oncue_connections_evicted_total") >= 2)
        #expect(server.metric("oncue_connections_timed_out_total", where: "phase=\"idle\"") == 0)
    }

    @Test("beside 1,200 idle keep-alive connections at --max-connections 1000, health checks are answered within 50 ms p99")
    func healthChecksBesideAFullHouse() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let server = try await ServeProcess(store: store.path, arguments: ["--max-connections", "1000"], environment: ["ONCUE_RATE_LIMIT_RPS": "0"])
        // Five addresses, 240 each: under the per-address cap, as the probe spread them.
        var idle: [RawConnection] = []
        var unanswered = 0
        for i in 0..<1_200 {
            let connection = try RawConnection(port: server.port, from: "127.0.0.\(2 + i % 5)")
            try connection.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            if !connection.readResponse().hasPrefix("HTTP/1.1 200") { unanswered += 1 }
            idle.append(connection)
        }
        #expect(unanswered == 0, "\(unanswered) of 1,200 connections got no answer")
        var times: [Duration] = []
        for _ in 0..<100 {
            let started = ContinuousClock.now
            let check = RawConnection.get(port: server.port, "/healthz") ?? ""
            times.append(ContinuousClock.now - started)
            #expect(check.hasPrefix("HTTP/1.1 200"))
        }
        times.sort()
        let p99 = times[98]
        // The figure is 50 ms on the release binary (scripts/abuse.sh, RELIABILITY.md); a debug build on a loaded
        // machine gets five times that. Before, these waited 12 s or more, until idle connections timed out.
        #expect(p99 < .milliseconds(250), "health checks' p99 \(p99)")
        #expect(server.metric("oncue_connections_evicted_total") >= 200)
    }

    @Test("past --max-connections with every connection busy, a new connection waits until one closes")
    func busyConnectionsKeepTheirPlaces() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let server = try await ServeProcess(store: store.path, arguments: ["--max-connections", "4", "--body-timeout", "1"])
        var busy: [RawConnection] = []
        let firstSent = ContinuousClock.now
        for _ in 0..<4 {
            let connection = try RawConnection(port: server.port)
            try connection.write(Self.head + "Content-Length: 50\r\n\r\n{")  // a request in progress: never closed to make room
            busy.append(connection)
        }
        let waiting = try RawConnection(port: server.port)  // the kernel's backlog takes it
        try waiting.write("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let response = waiting.readResponse()
        // No place frees before the first body has been late 1 s.
        let waited = ContinuousClock.now - firstSent
        #expect(response.hasPrefix("HTTP/1.1 200"))
        #expect(waited >= .milliseconds(950), "answered \(waited) after the first request, before a busy connection was cut")
        #expect(server.metric("oncue_connections_timed_out_total", where: "phase=\"body\"") >= 1)
        #expect(server.metric("oncue_connections_evicted_total") == 0)
    }

    @Test("an upload a kill -9 left behind is removed at the next start; a live server's upload is not")
    func orphanedUploadsAreRemoved() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let temporary = store.directory.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let token = "orphan-test-token-0123456789"
        let environment = ["TMPDIR": temporary.path, "ONCUE_ADMIN_TOKEN": token]
        func uploads() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.hasPrefix("oncue-upload-") }
        }
        // A server killed while it receives an upload.
        let killed = try await ServeProcess(store: store.path, environment: environment)
        let uploader = try RawConnection(port: killed.port)
        try uploader.write(
            "POST /admin/imports?network=costco HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: text/csv\r\nContent-Length: 100000\r\n\r\nid,name,lat,lon\nx1,Costco X,37.70,-122.40\n")
        try #require(try await eventually { try !uploads().isEmpty }, "the server never began to receive the upload")
        killed.signal(SIGKILL)
        _ = try await killed.waitForExit(within: .seconds(5))
        let orphans = try uploads()
        #expect(orphans.count == 1, "expected the killed server's upload on disk: \(orphans)")
        // Another server's upload in progress: its process holds the lock.
        let held = temporary.appendingPathComponent("oncue-upload-\(UUID().uuidString).csv").path
        let unrelated = temporary.appendingPathComponent("notes.csv").path
        for path in [held, unrelated] { #expect(FileManager.default.createFile(atPath: path, contents: Data("id,lat,lon\n".utf8))) }
        let fd = open(held, O_RDONLY)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)

        let restarted = try await ServeProcess(store: store.path, environment: environment)
        #expect(try uploads() == [(held as NSString).lastPathComponent])
        #expect(FileManager.default.fileExists(atPath: unrelated))
        #expect(restarted.log.contains("removed uploads left by a stopped server"))
    }
}
