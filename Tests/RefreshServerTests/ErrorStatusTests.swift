import Foundation
import HTTPTypes
import HummingbirdTesting
import Synchronization
import TestSupport
import Testing

@testable import RefreshServer

@Suite("every error status, as JSON")
struct ErrorStatusTests {
    @Test(
        arguments: [
            ("{", "malformed_json", nil),
            (#"{"lon": -122.4}"#, "missing_field", "lat"),
            (#"{"lat": 37.7, "lon": 200}"#, "invalid_field", "lon"),
            (#"{"lat": 37.7, "lon": -122.4, "max_regions": 0}"#, "invalid_field", "max_regions"),
            (#"{"lat": 37.7, "lon": -122.4, "radius_km": "far"}"#, "invalid_field", "radius_km"),
            (#"{"lat": 37.7, "lon": -122.4, "user_networks": [""]}"#, "invalid_field", "user_networks[0]"),
            (#"{"lat": 37.7, "lon": -122.4, "local_time": "evening"}"#, "invalid_field", "local_time"),
            ("[1, 2]", "malformed_json", nil),
        ] as [(String, String, String?)])
    func badRequestNamesTheField(body: String, code: String, field: String?) async throws {
        try await withServer { client, _ in
            let reply = try await client.send(.post, "/v1/region-refresh", body: body)
            #expect(reply.status == 400)
            #expect(reply.json?["error"]?.string == code)
            #expect(reply.json?["field"]?.string == field)
            if let field { #expect(reply.json?["message"]?.string?.contains(field) == true) }
        }
    }

    @Test func unknownPathIs404AndWrongMethodIs405WithAllow() async throws {
        try await withServer { client, _ in
            let missing = try await client.send(.get, "/v2/nothing", route: Reply.unroutable)
            #expect(missing.status == 404)
            #expect(missing.json?["error"]?.string == "not_found")
            let wrong = try await client.send(.get, "/v1/region-refresh", route: Reply.unroutable)
            #expect(wrong.status == 405)
            #expect(wrong.json?["error"]?.string == "method_not_allowed")
            #expect(wrong.headers[.allow] == "POST")
            let admin = try await client.send(.delete, "/admin/imports/3", route: Reply.unroutable, headers: .admin)
            #expect(admin.status == 405)
            #expect(admin.headers[.allow] == "GET")
            let both = try await client.send(.patch, "/admin/imports", route: Reply.unroutable, headers: .admin)
            #expect(both.headers[.allow]?.split(separator: ",").map { $0.trimmingSpaces }.sorted() == ["GET", "POST"])
        }
    }

    @Test func bodyOverTheLimitIs413() async throws {
        let configure: (inout ServerConfiguration) -> Void = { $0.maxBodyBytes = 512 }

        try await withServer(configure: configure) { client, _ in
            let padding = String(repeating: "x", count: 2_000)
            let reply = try await client.send(.post, "/v1/region-refresh", body: #"{"lat": 1, "lon": 2, "local_time": "\#(padding)"}"#)
            #expect(reply.status == 413)
            #expect(reply.json?["error"]?.string == "body_too_large")
            let small = try await client.send(.post, "/v1/region-refresh", body: #"{"lat": 37.7, "lon": -122.4}"#)
            #expect(small.status == 200)
        }
    }

    @Test func wrongOrMissingContentTypeIs415() async throws {
        try await withServer { client, _ in
            let text = try await client.send(.post, "/v1/region-refresh", headers: [.contentType: "text/plain"], body: #"{"lat": 1, "lon": 2}"#)
            #expect(text.status == 415)
            #expect(text.json?["error"]?.string == "unsupported_media_type")
            let none = try await client.send(.post, "/v1/region-refresh", body: #"{"lat": 1, "lon": 2}"#, json: false)
            #expect(none.status == 415)
            let charset = try await client.send(
                .post, "/v1/region-refresh", headers: [.contentType: "application/json; charset=utf-8"],
                body: #"{"lat": 1, "lon": 2}"#)
            #expect(charset.status == 200)
        }
    }

    @Test func exhaustedBucketIs429WithRetryAfter() async throws {
        // One token per 1,000 s: a loaded machine may take seconds between the requests, and Retry-After (the whole
        // seconds until the next token) must not depend on that beyond the 100 s the bounds below allow.
        let configure: (inout ServerConfiguration) -> Void = { $0.rateLimit = .init(requestsPerSecond: 0.001, burst: 2) }

        try await withServer(configure: configure) { client, _ in
            let body = #"{"lat": 37.7, "lon": -122.4}"#
            #expect(try await client.send(.post, "/v1/region-refresh", body: body).status == 200)
            #expect(try await client.send(.get, "/v1/networks").status == 200)
            let limited = try await client.send(.post, "/v1/region-refresh", body: body)
            #expect(limited.status == 429)
            #expect(limited.json?["error"]?.string == "rate_limited")
            let retryAfter = try #require(limited.json?["retry_after"]?.int)
            #expect((900...1000).contains(retryAfter))
            #expect(limited.headers[.retryAfter] == String(retryAfter))
            // Probes are never limited, so monitoring keeps working for a throttled address.
            #expect(try await client.send(.get, "/healthz").status == 200)
            #expect(try await client.send(.get, "/metrics").text.contains("oncue_rate_limited_total 1\n"))
        }
    }

    @Test func clientHeaderSeparatesBuckets() async throws {
        let configure: (inout ServerConfiguration) -> Void = {
            $0.rateLimit = .init(requestsPerSecond: 0.001, burst: 1)
            $0.clientIPHeader = "X-Forwarded-For"
        }
        // Live: the forwarded header is read only from a trusted peer, which needs a connection's address.
        try await withServer(over: .live, configure: configure) { client, _ in
            let a: HTTPFields = [.init("X-Forwarded-For")!: "203.0.113.1, 10.0.0.1"]
            let b: HTTPFields = [.init("X-Forwarded-For")!: "203.0.113.2"]
            let first = try await client.send(.get, "/v1/networks", headers: a)
            let second = try await client.send(.get, "/v1/networks", headers: a)
            let other = try await client.send(.get, "/v1/networks", headers: b)
            #expect(first.status == 200)
            #expect(second.status == 429)
            #expect(other.status == 200)
        }
    }

    /// As nginx forwards it (`$proxy_add_x_forwarded_for`): whatever the client wrote, then the address nginx saw. A
    /// client rotating what it writes stays one client: only the right-most address not a trusted proxy counts.
    @Test func spoofedForwardedEntriesDoNotEscapeTheLimit() async throws {
        let configure: (inout ServerConfiguration) -> Void = {
            $0.rateLimit = .init(requestsPerSecond: 0.001, burst: 1)
            $0.clientIPHeader = "X-Forwarded-For"
        }
        // Live: the forwarded header is read only from a trusted peer, which needs a connection's address.
        try await withServer(over: .live, configure: configure) { client, _ in
            var statuses: [Int] = []
            for i in 0..<30 {
                let spoofed: HTTPFields = [.init("X-Forwarded-For")!: "10.9.\(i).1, 192.0.2.\(i), 198.51.100.7"]
                statuses.append(try await client.send(.get, "/v1/networks", headers: spoofed).status)
            }
            #expect(statuses.first == 200)
            #expect(statuses.dropFirst().allSatisfy { $0 == 429 }, "\(statuses)")
            // RFC 7239's header names the client the same way.
        }
    }

    /// A peer that is not a trusted proxy cannot name a client at all: its header is ignored.
    @Test func anUntrustedPeersHeaderIsIgnored() async throws {
        let configure: (inout ServerConfiguration) -> Void = {
            $0.rateLimit = .init(requestsPerSecond: 0.001, burst: 1)
            $0.clientIPHeader = "Forwarded"
            $0.trustedProxies = [IPNetwork("10.255.0.0/16")!]
        }
        try await withServer(configure: configure) { client, _ in
            let first = try await client.send(.get, "/v1/networks", headers: [.init("Forwarded")!: "for=203.0.113.1"])
            let second = try await client.send(.get, "/v1/networks", headers: [.init("Forwarded")!: "for=203.0.113.2"])
            #expect(first.status == 200)
            #expect(second.status == 429)
        }
    }

    /// Request ids are random: sequential ones (Hummingbird's counter) told any client the server's request volume.
    @Test func requestIdsRevealNoCount() async throws {
        try await withServer { client, _ in
            var ids: [UInt64] = []
            for _ in 0..<5 {
                let id = try #require(try await client.send(.get, "/healthz").headers[.requestID])
                #expect(id.count == 16 && UInt64(id, radix: 16) != nil, "\(id)")
                ids.append(UInt64(id, radix: 16) ?? 0)
            }
            #expect(Set(ids).count == 5)
            #expect(zip(ids, ids.dropFirst()).contains { $1 &- $0 > 1_000_000 })
        }
    }

    @Test func notReadyIs503UntilTheIndexLoads() async throws {
        // Hold the server's rebuild thread, before the server starts, so that its first load cannot finish until the
        // checks are done.
        let gate = Gate()
        // Opened on every way out: a thread left waiting would keep the test process from exiting.
        defer { gate.open() }
        let executors = ServerExecutors()
        let blocking = Gate()
        let blocker = Task {
            try await executors.rebuilds.run {
                blocking.open()
                gate.wait()
            }
        }
        _ = try await eventually { blocking.isOpened }
        try await withServer(waitUntilReady: false, executors: executors) { client, built in
            let ready = try await client.send(.get, "/readyz")
            #expect(ready.status == 503)
            #expect(ready.json?["error"]?.string == "not_ready")
            #expect(ready.headers[.retryAfter] == "1")
            let refresh = try await client.send(.post, "/v1/region-refresh", body: #"{"lat": 37.7, "lon": -122.4}"#)
            #expect(refresh.status == 503)
            #expect(try await client.send(.get, "/v1/networks").status == 503)
            #expect(try await client.send(.get, "/healthz").status == 200)
            gate.open()
            try await waitForReload(built, count: 1)
            #expect(try await client.send(.get, "/readyz").status == 200)
        }
        gate.open()
        try await blocker.value
    }
}

/// A one-shot latch a blocking thread can wait on.
final class Gate: Sendable {
    private let condition = NSCondition()
    private let isOpen = Mutex(false)

    func wait() {
        condition.lock()
        while !isOpen.withLock({ $0 }) { condition.wait() }
        condition.unlock()
    }

    var isOpened: Bool { isOpen.withLock { $0 } }

    func open() {
        condition.lock()
        isOpen.withLock { $0 = true }
        condition.broadcast()
        condition.unlock()
    }
}
