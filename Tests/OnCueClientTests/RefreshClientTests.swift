import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import OnCueClient
import OnCueContract
import Synchronization
import Testing

/// `RefreshClient` against a loopback server that answers from a script: what it sends, how it reads each status, and
/// when it asks again (the waits recorded, not slept).
@Suite struct RefreshClientTests {
    struct Answer: Sendable {
        var status: HTTPResponse.Status
        var body: String
        var retryAfter: String?
    }

    /// The scripted server: each call takes the next answer (the last one repeats) and records its Authorization.
    final class Script: Sendable {
        let answers: [Answer]
        let calls = Mutex<[String?]>([])
        init(_ answers: [Answer]) { self.answers = answers }

        func next(authorization: String?) -> Answer {
            let n = calls.withLock {
                $0.append(authorization)
                return $0.count
            }
            return answers[min(n, answers.count) - 1]
        }
    }

    /// The waits the client asked for, in order.
    final class Waits: Sendable {
        let list = Mutex<[Double]>([])
        func withLock<T>(_ body: (inout [Double]) -> T) -> T { list.withLock { body(&$0) } }
    }

    static let regions =
        #"{"regions":[],"refresh_after_meters":500,"cache_ttl_seconds":3600,"server_time":"2026-11-27T10:00:00Z","coverage_guaranteed":true}"#
    static let request = RegionRefreshRequest(lat: 60.17, lon: 24.94)

    /// Runs `body` with a client of the scripted server whose waits are recorded.
    static func with(
        _ answers: [Answer], retry: RetryPolicy = RetryPolicy(), token: String? = nil,
        _ body: @escaping @Sendable (RefreshClient, Script, Waits) async throws -> Void
    ) async throws {
        let script = Script(answers)
        let router = Router()
        router.post("v1/region-refresh") { request, _ -> Response in
            _ = try await request.body.collect(upTo: 1 << 20)
            let answer = script.next(authorization: request.headers[.authorization])
            var headers: HTTPFields = [.contentType: "application/json"]
            if let retryAfter = answer.retryAfter { headers[.retryAfter] = retryAfter }
            return Response(status: answer.status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: answer.body)))
        }
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            let waits = Waits()
            let refresher = RefreshClient(
                baseURL: URL(string: "http://127.0.0.1:\(port)")!, timeoutSeconds: 10, retry: retry,
                accessToken: token.map { token -> @Sendable () async throws -> String? in { token } },
                sleep: { seconds in waits.withLock { $0.append(seconds) } })
            try await body(refresher, script, waits)
        }
    }

    @Test("a 200 is decoded; the session token goes as a bearer token, and none without a provider")
    func answered() async throws {
        try await Self.with([Answer(status: .ok, body: Self.regions)], token: "session-123") { client, script, waits in
            let response = try await client.refresh(Self.request, now: Date())
            #expect(response.refreshAfterMeters == 500 && response.coverageGuaranteed)
            #expect(script.calls.withLock { $0 } == ["Bearer session-123"])
            #expect(waits.withLock { $0 }.isEmpty)
        }
        try await Self.with([Answer(status: .ok, body: Self.regions)]) { client, script, _ in
            _ = try await client.refresh(Self.request, now: Date())
            #expect(script.calls.withLock { $0 } == [nil])
        }
    }

    @Test("503 with Retry-After is asked again after that wait; 429 without one backs off, doubling, then gives up")
    func retries() async throws {
        let busy = Answer(status: .serviceUnavailable, body: #"{"error":"not_ready","message":"loading"}"#, retryAfter: "2")
        try await Self.with([busy, Answer(status: .ok, body: Self.regions)]) { client, script, waits in
            _ = try await client.refresh(Self.request, now: Date())
            #expect(script.calls.withLock { $0.count } == 2)
            #expect(waits.withLock { $0 } == [2])
        }
        let limited = Answer(status: .tooManyRequests, body: #"{"error":"rate_limited","message":"slow down"}"#)
        try await Self.with([limited], retry: RetryPolicy(attempts: 3, baseDelaySeconds: 1, maxDelaySeconds: 30)) { client, script, waits in
            await #expect(throws: RefreshClientError.rateLimited(retryAfterSeconds: nil)) { try await client.refresh(Self.request, now: Date()) }
            #expect(script.calls.withLock { $0.count } == 3)
            #expect(waits.withLock { $0 } == [1, 2])
        }
        let hour = Answer(status: .serviceUnavailable, body: #"{"error":"store_unavailable","message":"down"}"#, retryAfter: "3600")
        try await Self.with([hour]) { client, script, waits in
            await #expect(throws: RefreshClientError.server(status: 503, code: "store_unavailable", retryAfterSeconds: 3600)) {
                try await client.refresh(Self.request, now: Date())
            }
            #expect(script.calls.withLock { $0.count } == 1, "a wait past the policy's longest is the app's to schedule")
            #expect(waits.withLock { $0 }.isEmpty)
        }
    }

    @Test("a refusal, an unaccepted token and a body that is not a response are never retried")
    func notRetried() async throws {
        let refused = Answer(status: .badRequest, body: #"{"error":"invalid_field","message":"field 'lat' must be a latitude","field":"lat"}"#)
        try await Self.with([refused]) { client, script, _ in
            await #expect(throws: RefreshClientError.refused(code: "invalid_field", message: "field 'lat' must be a latitude", field: "lat")) {
                try await client.refresh(Self.request, now: Date())
            }
            #expect(script.calls.withLock { $0.count } == 1)
        }
        try await Self.with([Answer(status: .unauthorized, body: #"{"error":"unauthorized","message":"no"}"#)]) { client, script, _ in
            await #expect(throws: RefreshClientError.unauthorized(status: 401)) { try await client.refresh(Self.request, now: Date()) }
            #expect(script.calls.withLock { $0.count } == 1)
        }
        try await Self.with([Answer(status: .ok, body: "<html>portal</html>")]) { client, script, _ in
            await #expect(throws: RefreshClientError.self) { try await client.refresh(Self.request, now: Date()) }
            #expect(script.calls.withLock { $0.count } == 1)
        }
    }

    @Test("no server: a transport failure, retried by the policy")
    func transport() async throws {
        let waits = Waits()
        // Port 1 on loopback: nothing listens, the connection is refused at once.
        let client = RefreshClient(
            baseURL: URL(string: "http://127.0.0.1:1")!, timeoutSeconds: 5, retry: RetryPolicy(attempts: 2, baseDelaySeconds: 0.5),
            sleep: { seconds in waits.withLock { $0.append(seconds) } })
        do {
            _ = try await client.refresh(Self.request, now: Date())
            Issue.record("a call to a closed port answered")
        } catch let error as RefreshClientError {
            guard case .transport = error else {
                Issue.record("\(error)")
                return
            }
        }
        #expect(waits.withLock { $0 } == [0.5])
    }

    @Test("the policy's waits: the server's Retry-After within the longest, else doubling from the base")
    func policy() {
        let policy = RetryPolicy(attempts: 4, baseDelaySeconds: 1, maxDelaySeconds: 5)
        let transport = RefreshClientError.transport("x")
        #expect((1...4).map { policy.delay(after: transport, attempt: $0) } == [1, 2, 4, nil])
        #expect(RetryPolicy(attempts: 9, baseDelaySeconds: 1, maxDelaySeconds: 5).delay(after: transport, attempt: 5) == 5)
        #expect(policy.delay(after: .rateLimited(retryAfterSeconds: 3), attempt: 1) == 3)
        #expect(policy.delay(after: .rateLimited(retryAfterSeconds: 6), attempt: 1) == nil)
        #expect(policy.delay(after: .refused(code: "invalid_field", message: "", field: nil), attempt: 1) == nil)
        #expect(RetryPolicy.never.delay(after: transport, attempt: 1) == nil)
    }
}
