import Foundation
import Geo
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationStore
import NIOCore
import PostGISStore
import TestSupport
import Testing

@testable import RefreshServer

/// A failover in the suite, small enough for CI: the primary stops dead in the middle of an import and its standby is
/// promoted, with HAProxy in front (`FailoverPair`). The server, never restarted, must follow: writes answer 503 with
/// Retry-After while there is no primary and succeed again once there is one, the failed import is in the new primary's
/// import log and nothing of it is kept, a repeat of it succeeds, a change made on the new primary is served, and
/// region-refresh answers 200 throughout. `scripts/fleet.sh drill` does this with Patroni under a phone population's
/// load (RELIABILITY.md, "Failover drills").
@Suite("A failover on PostGIS", .serialized, .enabled(if: FailoverPair.available))
struct FailoverTests {
    static let rows = 40_000

    static func csv(rows: Int) -> String {
        var text = "store_id,name,lat,lon\n"
        for i in 0..<rows { text += "f\(i),Failover \(i),\(40.0 + Double(i % 400) * 0.002),\(-74.5 + Double(i / 400) * 0.002)\n" }
        return text
    }

    @Test(
        "a server follows a promoted standby: writes come back, the failed import is logged and repeats, nothing is half-written, refresh never fails"
    )
    func followsAPromotedStandby() async throws {
        let pair = try await FailoverPair.start()
        do {
            try await exercise(pair)
        } catch {
            await pair.stop()
            throw error
        }
        await pair.stop()
    }

    private func exercise(_ pair: FailoverPair) async throws {
        let store = try await PostGISLocationStore.create(try pair.balanced)
        try await store.upsertNetwork(Network(id: "costco", name: "Costco", category: "wholesale"))
        _ = try await store.upsert([
            Location(networkId: "costco", externalId: "sf", name: "Costco SF", coordinate: Coordinate(uncheckedLatitude: 37.77, longitude: -122.413))
        ])
        await store.close()
        let server = try await PostgresServers.server(try pair.balanced, pollSeconds: 1)
        try await server.application.test(.live) { framework in
            try await LiveClient.with(framework) { client in
                try await waitForReload(server, count: 1)
                // The load stops on every path: calls still arriving while the server shuts down would meet a closed
                // listener's race in NIO rather than this test's own failure.
                let refreshes = RefreshLoad(port: try #require(client.port))
                do { try await failOver(pair, client) } catch {
                    _ = await refreshes.stop()
                    throw error
                }
                let (ok, failed) = await refreshes.stop()
                #expect(ok > 0 && failed == 0, "region-refresh during the failover: \(ok) answered, \(failed) failed")
            }
        }
    }

    private func failOver(_ pair: FailoverPair, _ client: LiveClient) async throws {
        let job = try await importUnderWay(client)
        try await pair.stopPrimary()
        try await pair.promoteStandby()
        let finished = try await jobResult(client, job)
        #expect(finished.status == "failed", "the import under way when the primary stopped: \(finished.text)")
        try await writesComeBack(client)
        try await failedImportIsLogged(pair)
        let again = try await client.send(
            .post, "/admin/imports?network=failover&file_name=failover.csv", route: "/admin/imports",
            headers: HTTPFields.admin.merging([.contentType: "text/csv"]), body: Self.csv(rows: Self.rows), json: false)
        #expect(again.status == 200, "the repeated import: \(again.text.prefix(300))")
        try await changeOnNewPrimaryIsServed(pair, client)
    }

    /// Starts the import as a job and returns once its rows are being written.
    private func importUnderWay(_ client: LiveClient) async throws -> String {
        let started = try await client.send(
            .post, "/admin/imports?network=failover&file_name=failover.csv", route: "/admin/imports",
            headers: HTTPFields.admin.merging([.contentType: "text/csv", HTTPField.Name("Prefer")!: "respond-async"]),
            body: Self.csv(rows: Self.rows), json: false)
        let job = try #require(started.json?["job"]?.string, "no job: \(started.text)")
        let writing = try await eventually(within: .seconds(60)) {
            let reply = try await client.send(.get, "/admin/jobs/\(job)", route: "/admin/jobs/{id}", headers: .admin)
            return (reply.json?["progress"]?["rows"]?.int ?? 0) > 0 || reply.json?["status"]?.string != "running"
        }
        try #require(writing, "the import never began writing")
        return job
    }

    private func jobResult(_ client: LiveClient, _ job: String) async throws -> (status: String, text: String) {
        var last = ("running", "")
        _ = try await eventually(within: .seconds(60)) {
            let reply = try await client.send(.get, "/admin/jobs/\(job)", route: "/admin/jobs/{id}", headers: .admin)
            last = (reply.json?["status"]?.string ?? "?", reply.text)
            return last.0 != "running"
        }
        return last
    }

    /// A single write every 250 ms until one succeeds: within 30 s, each refusal a 503 naming the store, with Retry-After.
    private func writesComeBack(_ client: LiveClient) async throws {
        let started = ContinuousClock.now
        var attempt = 0
        while ContinuousClock.now - started < .seconds(30) {
            attempt += 1
            let reply = try await client.send(
                .post, "/admin/locations", route: "/admin/locations", headers: .admin,
                body: #"{"network": "costco", "id": "after-\#(attempt)", "name": "Costco After", "lat": 37.78, "lon": -122.41}"#)
            if reply.status == 201 { return }
            #expect(reply.status == 503 && reply.json?["error"]?.string?.hasPrefix("store_") == true, "\(reply.status) \(reply.text)")
            #expect(reply.headers[.retryAfter] != nil, "a 503 without Retry-After")
            try await Task.sleep(for: .milliseconds(250))
        }
        Issue.record("no write succeeded within 30 s of the promotion")
    }

    /// The entry inside the rolled-back transaction is gone; the server writes one through a new connection.
    private func failedImportIsLogged(_ pair: FailoverPair) async throws {
        let newPrimary = try await PostGISLocationStore.open(try pair.standby, readOnly: true)
        let logged = try await eventually(within: .seconds(30)) {
            let entries: [ImportRecord] = try await newPrimary.imports(limit: 20, before: nil)
            return entries.contains { (entry: ImportRecord) -> Bool in entry.fileName == "failover.csv" && entry.status == "failed" }
        }
        #expect(logged, "the failed import is not in the new primary's import log")
        #expect(try await newPrimary.locations(networkId: "failover").isEmpty, "rows of the failed import were kept")
        await newPrimary.close()
    }

    /// A location written straight to the new primary reaches the server's index (its LISTEN or its poll followed).
    private func changeOnNewPrimaryIsServed(_ pair: FailoverPair, _ client: LiveClient) async throws {
        let direct = try await PostGISLocationStore.open(try pair.standby)
        _ = try await direct.upsert([
            Location(
                networkId: "costco", externalId: "oakland", name: "Costco Oakland",
                coordinate: Coordinate(uncheckedLatitude: 37.80, longitude: -122.27))
        ])
        await direct.close()
        let served = try await eventually(within: .seconds(15)) {
            let reply = try await client.send(
                .post, "/v1/region-refresh", body: #"{"lat": 37.80, "lon": -122.27, "user_networks": ["costco"]}"#)
            return reply.text.contains("loc_costco_oakland")
        }
        #expect(served, "a change on the new primary was not served within 15 s")
    }
}

/// Region-refresh calls one after another on a connection of their own until stopped, counting answers other than 200.
final class RefreshLoad: Sendable {
    private let task: Task<(Int, Int), Never>
    private let stopped = StopFlag()

    init(port: Int) {
        let stopped = stopped
        task = Task {
            let client = LiveClient(port: port)
            var ok = 0
            var failed = 0
            while !stopped.isSet {
                let reply = try? await client.send(
                    .post, "/v1/region-refresh", body: #"{"lat": 37.77, "lon": -122.41, "user_networks": ["costco"]}"#)
                if reply?.status == 200 { ok += 1 } else { failed += 1 }
                try? await Task.sleep(for: .milliseconds(20))
            }
            await client.shutdown()
            return (ok, failed)
        }
    }

    func stop() async -> (Int, Int) {
        stopped.set()
        return await task.value
    }
}
