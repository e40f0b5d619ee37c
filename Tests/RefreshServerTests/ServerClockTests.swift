import Foundation
import HTTPTypes
import LocationStore
import Synchronization
import TestSupport
import Testing

@testable import RefreshServer

/// What the server dates and times comes from the clock it was given (`ServerBuilder.build(clock:)`), never from the
/// process's clocks: a clock set years ahead shows in every date the API writes, and moving it forward expires
/// tokens, refills rate limits, ages the index and forgets finished jobs without the test waiting for any of it.
@Suite("The server's clock")
struct ServerClockTests {
    /// A time no test runs at, so that a date the server took from the machine's clock cannot pass for it.
    static let future = Date(timeIntervalSince1970: 1_937_122_200)  // 2031-05-20T12:10:00Z

    static func date(_ text: String?) -> Date? {
        guard let text else { return nil }
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return plain.date(from: text) ?? fractional.date(from: text)
    }

    static func isAbout(_ text: String?, _ expected: Date) -> Bool {
        guard let date = date(text) else { return false }
        return abs(date.timeIntervalSince(expected)) < 1
    }

    @Test("a refresh's server_time, a key's creation and revocation and the audit log are dated by the server's clock")
    func datesComeFromTheClock() async throws {
        let clock = ManualClock(at: Self.future)
        try await withServer(clock: clock.server) { client, _ in
            let refresh = try await client.send(.post, "/v1/region-refresh", body: #"{"lat": 37.77, "lon": -122.413, "user_networks": []}"#)
            #expect(Self.isAbout(refresh.json?["server_time"]?.string, Self.future), "\(refresh.text)")
            let key = try await AdminRoleTests.makeKey(client, role: .read)
            clock.advance(seconds: 90)
            let revoked = try await client.send(.delete, "/admin/keys/\(key.id)", route: "/admin/keys/{id}", headers: .admin)
            #expect(Self.isAbout(revoked.json?["created_at"]?.string, Self.future), "\(revoked.text)")
            #expect(Self.isAbout(revoked.json?["revoked_at"]?.string, Self.future + 90), "\(revoked.text)")
            let audit = try await client.send(.get, "/admin/audit?limit=10", headers: .admin)
            let times = audit.json?["entries"]?.array?.compactMap { $0["at"]?.string } ?? []
            #expect(times.count == 2, "\(audit.text)")
            #expect(times.contains { Self.isAbout($0, Self.future) } && times.contains { Self.isAbout($0, Self.future + 90) }, "\(times)")
        }
    }

    @Test("the rate limit refills as the server's clock moves, not as time passes")
    func rateLimitFollowsTheClock() async throws {
        let clock = ManualClock(at: Self.future)
        // A token every 2 s: a loaded machine may well take that long between two requests, and they are still refused.
        let slow: (inout ServerConfiguration) -> Void = { $0.rateLimit = .init(requestsPerSecond: 0.5, burst: 2) }
        try await withServer(clock: clock.server, configure: slow) { client, _ in
            var statuses: [Int] = []
            for _ in 0..<3 { statuses.append(try await client.send(.get, "/v1/networks").status) }
            #expect(statuses == [200, 200, 429])
            let refused = try await client.send(.get, "/v1/networks")
            #expect(refused.headers[.retryAfter] == "2")
            clock.advance(seconds: 1)
            #expect(try await client.send(.get, "/v1/networks").status == 429)
            clock.advance(seconds: 1)
            #expect(try await client.send(.get, "/v1/networks").status == 200)
            #expect(try await client.send(.get, "/v1/networks").status == 429)
        }
    }

    static func status(_ client: some ServerClient, _ headers: HTTPFields) async throws -> Int {
        try await client.send(.get, "/v1/networks", headers: headers).status
    }

    /// An access token good for 15 minutes up to `expiresAt`.
    static func token(expiresAt: Date) -> String {
        let issued = Int(expiresAt.timeIntervalSince1970) - 900
        let claims: [String: Any] = [
            "sub": "user-4711", "iat": issued, "exp": issued + 900, "iss": ClientTokenTests.issuer, "aud": ClientTokenTests.audience,
        ]
        return HandSignedJWT.hs256(claims, secret: ClientTokenTests.secret)
    }

    @Test("an access token expires by the server's clock, even once it has been accepted")
    func tokenExpiryFollowsTheClock() async throws {
        let clock = ManualClock(at: Self.future)
        try await withServer(clock: clock.server, configure: ClientTokenTests.configure) { client, _ in
            let current = ClientTokenTests.bearer(Self.token(expiresAt: Self.future + 900))
            // Valid by the machine's calendar, long expired by the server's.
            let machines = ClientTokenTests.bearer(Self.token(expiresAt: Date() + 900))
            var statuses = [try await Self.status(client, current), try await Self.status(client, machines)]
            // Past its expiry and the 60 s leeway, refused, though the verifier has it cached as good.
            clock.advance(seconds: 900 + 59)
            statuses.append(try await Self.status(client, current))
            clock.advance(seconds: 2)
            statuses.append(try await Self.status(client, current))
            #expect(statuses == [200, 401, 200, 401])
        }
    }

    @Test("the index's age and how long a finished job is kept follow the server's clock")
    func agesFollowTheClock() async throws {
        let clock = ManualClock(at: Date())
        try await withServer(clock: clock.server) { client, _ in
            let young = try await client.send(.get, "/readyz").json?["index_age_seconds"]?.double ?? -1
            #expect(young >= 0 && young < 3_600)
            clock.advance(seconds: 3 * 3_600)
            let old = try await client.send(.get, "/readyz").json?["index_age_seconds"]?.double ?? -1
            #expect(old >= 3 * 3_600 && old < 4 * 3_600, "\(old)")
            let metrics = try await client.send(.get, "/metrics").text
            let age = metrics.split(separator: "\n").first { $0.hasPrefix("oncue_index_age_seconds ") }
            #expect(age.flatMap { Double($0.split(separator: " ").last ?? "") }.map { $0 >= 3 * 3_600 } == true, "\(age ?? "none")")

            // Each import waits for the one before: a second would be refused while the first holds the writer.
            let headers = HTTPFields.admin.merging([.contentType: "text/csv", HTTPField.Name("Prefer")!: "respond-async"])
            func importToTheEnd(_ network: String) async throws -> String {
                let started = try await client.send(
                    .post, "/admin/imports?network=\(network)&file_name=\(network).csv", headers: headers,
                    body: ImportSwapTests.manhattanCSV(count: 20), json: false)
                let job = try #require(started.json?["job"]?.string, "\(started.text)")
                let ended = try await eventually(within: .seconds(600)) {
                    let reply = try await client.send(.get, "/admin/jobs/\(job)", route: "/admin/jobs/{id}", headers: .admin)
                    return reply.json?["status"]?.string != "running"
                }
                try #require(ended, "the import into \(network) did not end")
                return job
            }
            let first = try await importToTheEnd("first")
            clock.advance(seconds: 3_599)
            _ = try await importToTheEnd("second")
            #expect(try await client.send(.get, "/admin/jobs/\(first)", route: "/admin/jobs/{id}", headers: .admin).status == 200)
            clock.advance(seconds: 2)
            _ = try await importToTheEnd("third")
            #expect(try await client.send(.get, "/admin/jobs/\(first)", route: "/admin/jobs/{id}", headers: .admin).status == 404)
        }
    }
}
