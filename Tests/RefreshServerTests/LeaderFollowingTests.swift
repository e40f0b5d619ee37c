import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationStore
import NIOCore
import PostGISStore
import Testing

@testable import RefreshServer

#if canImport(Glibc)
import Glibc
#endif

/// What a server does when the member its URL reaches is no longer the primary, as after a failover: the CI standby
/// (scripts/postgres.sh start-standby) stands in for a demoted primary. A write there fails with SQLSTATE 25006; it must
/// be reported as the read-only store it is (a 503 to retry, naming the database), and the connection that met it must
/// not serve again, so the next use opens one that a balancer can send to the new primary.
@Suite(
    "Following the primary on PostGIS", .serialized,
    .enabled(if: PostgresServers.primary != nil || PostgresServers.required))
struct LeaderFollowingTests {
    static var standbyAvailable: Bool { PostgresServers.standby != nil || PostgresServers.required }

    @Test(
        "a write that meets a standby is refused as read-only, naming the database, and its connection is not kept",
        .enabled(if: standbyAvailable))
    func aWriteOnAStandby() async throws {
        let url = try await PostgresServers.createStore()
        defer { Task { await PostgresServers.drop(url) } }
        let standby = try await PostgresServers.replayed(url)
        // Opening writes nothing, so a store opened to write opens on a standby as on the primary it once was.
        let store = try await PostGISLocationStore.open(standby)
        do {
            try await store.upsertNetwork(Network(id: "walmart", name: "Walmart", category: "grocery"))
            Issue.record("a write on a standby succeeded")
        } catch StoreError.readOnly(let reason) {
            #expect(reason.contains("\(standby.host):\(standby.port)") && reason.contains("standby"), "\(reason)")
        } catch {
            Issue.record("a write on a standby failed as \(error), not as a read-only store")
        }
        #expect(!store.suspend(), "the connection that met a standby would be kept for another use")
        await store.close()
        await PostgresServers.drop(url)
    }

    @Test(
        "a kept connection serves writes again only on a primary; one kept for reading serves on a standby",
        .enabled(if: standbyAvailable))
    func reuseChecksForAPrimary() async throws {
        let url = try await PostgresServers.createStore()
        defer { Task { await PostgresServers.drop(url) } }
        let standby = try await PostgresServers.replayed(url)
        let writerOnStandby = try await PostGISLocationStore.open(standby)
        let readerOnStandby = try await PostGISLocationStore.open(standby, readOnly: true)
        let writerOnPrimary = try await PostGISLocationStore.open(url)
        #expect(await writerOnStandby.resume() == false, "a write connection on a standby would be used again")
        #expect(await readerOnStandby.resume() == true, "a read connection on a standby was given up")
        #expect(await writerOnPrimary.resume() == true, "a write connection on the primary was given up")
        for store in [writerOnStandby, readerOnStandby, writerOnPrimary] { await store.close() }
        await PostgresServers.drop(url)
    }

    @Test(
        "admin writes to a server whose database has become a standby answer 503 store_read_only with Retry-After; nothing is kept",
        .enabled(if: standbyAvailable))
    func aServerOnAStandby() async throws {
        let url = try await PostgresServers.createStore()
        defer { Task { await PostgresServers.drop(url) } }
        let standby = try await PostgresServers.replayed(url)
        let server = try await PostgresServers.server(standby)
        try await server.application.test(.live) { framework in
            try await LiveClient.with(framework) { client in
                try await waitForReload(server, count: 1)
                for attempt in 0..<2 {
                    // The second attempt takes a new connection from the pool: it meets the standby again, and says so.
                    let reply = try await client.send(
                        .post, "/admin/locations", route: "/admin/locations", headers: .admin,
                        body: #"{"network": "costco", "id": "new-\#(attempt)", "name": "Costco New", "lat": 37.78, "lon": -122.41}"#)
                    #expect(reply.status == 503 && reply.json?["error"]?.string == "store_read_only", "\(reply.text)")
                    #expect(reply.headers[.retryAfter] == "5")
                    #expect(reply.json?["message"]?.string?.contains("\(standby.host):\(standby.port)") == true, "\(reply.text)")
                }
                // The public API still answers from the index it has.
                let refresh = try await client.send(
                    .post, "/v1/region-refresh", body: #"{"lat": 37.77, "lon": -122.41, "user_networks": ["costco"]}"#)
                #expect(refresh.status == 200 && refresh.text.contains("loc_costco_sf"), "\(refresh.text)")
            }
        }
        let primary = try await PostGISLocationStore.open(url, readOnly: true)
        #expect(try await primary.locations(networkId: "costco").count == 1, "a refused write left a row")
        await primary.close()
        await PostgresServers.drop(url)
    }

    @Test("every connection to PostgreSQL has TCP keepalive, as the kernel reports it, so a silent cut is found")
    func keepalive() async throws {
        let server = try #require(PostgresServers.primary, "ONCUE_POSTGRES_URL is not set")
        let channel = try await server.openChannel()
        func tcp(_ name: Int32) async throws -> Int {
            try await channel.getOption(ChannelOptions.Types.SocketOption(level: .tcp, name: NIOBSDSocket.Option(rawValue: name))).get()
        }
        #expect(try await channel.getOption(ChannelOptions.socketOption(.so_keepalive)).get() != 0)
        #expect(try await tcp(TCP_KEEPIDLE) == PostgresURL.keepAliveIdle)
        #expect(try await tcp(TCP_KEEPINTVL) == PostgresURL.keepAliveInterval)
        #expect(try await tcp(TCP_KEEPCNT) == PostgresURL.keepAliveCount)
        #expect(try await tcp(TCP_USER_TIMEOUT) == PostgresURL.userTimeoutMilliseconds)
        try await channel.close()
        // And a store's connection, which is opened on such a channel, still works end to end.
        let url = try await PostgresServers.createStore()
        let store = try await PostGISLocationStore.open(url, readOnly: true)
        #expect(try await store.locations(networkId: "costco").count == 1)
        await store.close()
        await PostgresServers.drop(url)
    }
}
