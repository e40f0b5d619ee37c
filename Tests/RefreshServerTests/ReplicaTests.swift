import Foundation
import Geo
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationStore
import Logging
import NIOCore
import PostGISStore
import StoreOpening
import TestSupport
import Testing

@testable import RefreshServer

/// Services these tests need, as scripts/test.sh and CI provide them.
enum PostgresServers {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }
    static var required: Bool { environment["ONCUE_SERVICES"] == "required" }
    static var primary: PostgresURL? { environment["ONCUE_POSTGRES_URL"].flatMap { try? PostgresURL($0) } }
    static var standby: PostgresURL? { environment["ONCUE_POSTGRES_STANDBY_URL"].flatMap { try? PostgresURL($0) } }

    /// A database of its own on the primary, with an empty OnCue store; dropped by `drop`.
    static func createStore() async throws -> PostgresURL {
        let server = try #require(primary, "ONCUE_POSTGRES_URL is not set: start PostgreSQL with scripts/postgres.sh start")
        let name = "oncue_replica_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        try await PostGISLocationStore.execute(on: server, "CREATE DATABASE \(name)")
        let url = server.with(database: String(name))
        let store = try await PostGISLocationStore.create(url)
        try await store.upsertNetwork(Network(id: "costco", name: "Costco", category: "wholesale"))
        _ = try await store.upsert([
            Location(
                networkId: "costco", externalId: "sf", name: "Costco SF",
                coordinate: Coordinate(uncheckedLatitude: 37.77, longitude: -122.413))
        ])
        await store.close()
        return url
    }

    /// The same database on the standby, once the standby has replayed its creation and schema. Replay is usually
    /// under a second, but with the whole suite loading CI's two cores it has taken over ten.
    static func replayed(_ url: PostgresURL) async throws -> PostgresURL {
        let standbyServer = try #require(standby, "ONCUE_POSTGRES_STANDBY_URL is not set: scripts/postgres.sh start-standby")
        let readURL = standbyServer.with(database: url.database)
        var lastError: (any Error)?
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .seconds(60) {
            do {
                try await StoreAddress.postgres(readURL).open(readOnly: true).close()
                return readURL
            } catch {
                lastError = error
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        Issue.record("the standby never showed the new database in 60 s: \(lastError.map { "\($0)" } ?? "no error")")
        throw CancellationError()
    }

    static func drop(_ url: PostgresURL) async {
        guard let server = primary else { return }
        try? await PostGISLocationStore.execute(on: server, "DROP DATABASE IF EXISTS \(url.database) WITH (FORCE)")
    }

    static func server(_ url: PostgresURL, read: PostgresURL? = nil, pollSeconds: Double = 5) async throws -> ServerBuilder.Built {
        var configuration = ServerConfiguration(database: url.description, host: "127.0.0.1", port: 0, adminToken: adminToken)
        configuration.readDatabase = read?.description
        configuration.rateLimit = nil
        configuration.storePollSeconds = pollSeconds
        configuration.connections = .forTests
        var logger = Logger(label: "oncue.test")
        logger.logLevel = .critical
        return try await ServerBuilder.build(configuration: configuration, logger: logger)
    }
}

@Suite(
    "Replicas on PostGIS", .serialized,
    .enabled(if: PostgresServers.primary != nil || PostgresServers.required))
struct ReplicaTests {
    static let query = #"{"lat": 40.7300, "lon": -74.0000, "user_networks": ["target"], "max_regions": 20}"#

    /// Until `deadline`, asks the server on `port` for the Manhattan regions of `network`; returns when they include
    /// the imported locations.
    static func waitFor(_ network: String, on port: Int, within deadline: Duration) async throws -> Duration? {
        let started = ContinuousClock.now
        let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(120)))
        client.connect()
        defer { Task { try? await client.shutdown() } }
        let body = #"{"lat": 40.7300, "lon": -74.0000, "user_networks": [""# + network + #""], "max_regions": 20}"#
        while ContinuousClock.now - started < deadline {
            let response = try await client.postWithHost(
                "/v1/region-refresh", headers: [.contentType: "application/json"], body: ByteBuffer(string: body))
            if String(buffer: response.body ?? ByteBuffer()).contains("loc_\(network)_t") { return ContinuousClock.now - started }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    static func waitForTarget(_ port: Int, within deadline: Duration) async throws -> Duration? {
        try await waitFor("target", on: port, within: deadline)
    }

    /// B polls the version row only every ten minutes here, so what brings an import to it within the minute is A's
    /// NOTIFY. How soon is a benchmark's figure (`scripts/bench-postgis.sh`, BENCHMARKS.md): tens of milliseconds.
    @Test("imports through replica A are served by replica B at A's NOTIFY, not B's 10-minute poll, with no failed request under load")
    func twoReplicas() async throws {
        let url = try await PostgresServers.createStore()
        defer { Task { await PostgresServers.drop(url) } }
        let a = try await PostgresServers.server(url)
        let b = try await PostgresServers.server(url, pollSeconds: 600)
        try await a.application.test(.live) { frameworkA in
            try await b.application.test(.live) { frameworkB in
                try await LiveClient.with(frameworkA) { clientA in
                    try await LiveClient.with(frameworkB) { clientB in
                        try await waitForReload(a, count: 1)
                        try await waitForReload(b, count: 1)
                        let portB = try #require(clientB.port)
                        let stop = StopFlag()
                        let load = Task {
                            try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                                for _ in 0..<3 {
                                    group.addTask {
                                        let reader = TestClient(host: "127.0.0.1", port: portB, configuration: .init(timeout: .seconds(120)))
                                        reader.connect()
                                        defer { Task { try? await reader.shutdown() } }
                                        var ok = 0
                                        var failed = 0
                                        while !stop.isSet {
                                            let response = try await reader.postWithHost(
                                                "/v1/region-refresh", headers: [.contentType: "application/json"],
                                                body: ByteBuffer(string: Self.query))
                                            if response.status == .ok { ok += 1 } else { failed += 1 }
                                        }
                                        return (ok, failed)
                                    }
                                }
                                var total = (0, 0)
                                for try await r in group { total = (total.0 + r.0, total.1 + r.1) }
                                return total
                            }
                        }
                        // Three imports, each of a new network, each served by B well before its poll could bring it.
                        let headers = HTTPFields.admin.merging([.contentType: "text/csv"])
                        for network in ["target", "kmart", "walmart"] {
                            let imported = try await clientA.send(
                                .post, "/admin/imports?network=\(network)&category=grocery", headers: headers,
                                body: ImportSwapTests.manhattanCSV(count: 400), json: false)
                            #expect(imported.status == 200 && imported.json?["committed"]?.bool == true)
                            // Read your writes: the replica that took the import serves it with its 200, and says which version.
                            let here = try await clientA.send(
                                .post, "/v1/region-refresh",
                                body: #"{"lat": 40.7300, "lon": -74.0000, "user_networks": [""# + network + #""], "max_regions": 20}"#)
                            #expect(here.text.contains("loc_\(network)_t"), "replica A answered its own import's 200 before serving it")
                            #expect(Int(imported.headers[ImportRoute.storeVersionHeader] ?? "") != nil, "no OnCue-Store-Version on the answer")
                            let seen = try await Self.waitFor(network, on: portB, within: .seconds(60))
                            try #require(seen != nil, "replica B did not serve the import of \(network) within 60 s")
                        }
                        stop.set()
                        let (ok, failed) = try await load.value
                        #expect(failed == 0 && ok > 0, "\(failed) failed of \(ok + failed) requests on replica B")
                        let ready = try await clientB.send(.get, "/readyz")
                        #expect(ready.json?["store"]?.string == "reachable" && (ready.json?["store_version"]?.int ?? 0) >= 2)
                    }
                }
            }
        }
        await PostgresServers.drop(url)
    }

    @Test(
        "with --db-read on a hot standby: the index is read from the standby once it has replayed the import",
        .enabled(if: PostgresServers.standby != nil || PostgresServers.required))
    func standby() async throws {
        let url = try await PostgresServers.createStore()
        let readURL = try await PostgresServers.replayed(url)
        let replica = try await PostgresServers.server(url, read: readURL)
        try await replica.application.test(.live) { framework in
            try await LiveClient.with(framework) { client in
                try await waitForReload(replica, count: 1)
                let before = try await Self.rowsRead(readURL)
                let headers = HTTPFields.admin.merging([.contentType: "text/csv"])
                let imported = try await client.send(
                    .post, "/admin/imports?network=target", headers: headers,
                    body: ImportSwapTests.manhattanCSV(count: 300), json: false)
                #expect(imported.status == 200)
                let seen = try await Self.waitForTarget(try #require(client.port), within: .seconds(30))
                #expect(seen != nil, "the replica never served the import")
                // The rebuild read every location (301) from the standby. PostgreSQL publishes a backend's statistics
                // about once a second, so the count may lag the rebuild.
                var read: Int64 = 0
                let counted = try await eventually(within: .seconds(30)) {
                    read = try await Self.rowsRead(readURL) - before
                    return read >= 301
                }
                #expect(counted, "the standby counted \(read) rows read since the import, not the rebuild's 301")
                let listed = try await client.send(.get, "/admin/imports", headers: .admin)
                #expect(listed.json?["imports"]?.array?.count == 1, "read-only admin routes read the standby too")
            }
        }
        await PostgresServers.drop(url)
    }

    /// Rows the database at `url` has returned to queries so far.
    static func rowsRead(_ url: PostgresURL) async throws -> Int64 {
        let store = try await PostGISLocationStore.open(url, readOnly: true)
        let rows = try await store.tuplesReturned()
        await store.close()
        return rows
    }
}
