import Foundation
import Geo
import Hummingbird
import HummingbirdTesting
import LocationStore
import OnCueContract
import PostGISStore
import RegionRefresh
import TestSupport
import Testing

@testable import RefreshServer

/// A replica that misses the notification of a change (its `LISTEN` connection dropped) finds the change by its poll,
/// brings its index up to date by the changes since its version, and then answers exactly as an index built from the
/// store would: it never serves a mix of versions or stays behind.
@Suite(
    "A replica catching up on PostGIS", .serialized,
    .enabled(if: PostgresServers.primary != nil || PostgresServers.required))
struct ReplicaCatchUpTests {
    static let points = [
        Coordinate(uncheckedLatitude: 40.7300, longitude: -74.0000), Coordinate(uncheckedLatitude: 40.7450, longitude: -73.9900),
        Coordinate(uncheckedLatitude: 37.7700, longitude: -122.4130),
    ]

    @Test("LISTEN dropped: the poll brings the change, and every answer equals a build from the store")
    func listenDropped() async throws {
        let url = try await PostgresServers.createStore()
        defer { Task { await PostgresServers.drop(url) } }
        let b = try await PostgresServers.server(url, pollSeconds: 1)
        try await b.application.test(.live) { client in
            try await waitForReload(b, count: 1)
            let port = try #require(client.port)
            // Every connection of the replica's database that last ran LISTEN: the replica's listener.
            try await PostGISLocationStore.execute(
                on: url,
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'")
            let writer = try await PostGISLocationStore.open(url)
            try await writer.upsertNetwork(Network(id: "target", name: "Target", category: "grocery"))
            _ = try await writer.upsert(
                (0..<40).map { i in
                    Location(
                        id: "loc_target_t\(i)", networkId: "target", externalId: "t\(i)", name: "Target \(i)",
                        coordinate: Sphere.destination(from: Self.points[0], meters: Double(i) * 60, bearing: Double(i) * 37))
                })
            let sf = try #require(try await writer.locationIds(networkId: "costco").first)
            #expect(try await writer.deleteLocations(ids: [sf]) == 1)
            try await writer.upsertNetwork(Network(id: "costco", name: "Costco Wholesale", category: "wholesale", defaultRadiusMeters: 250))
            let seen = try await ReplicaTests.waitFor("target", on: port, within: .seconds(60))
            #expect(seen != nil, "the replica never served the change it was not told of")
            // The poll may find the version between two of the writes: wait until the index answers the last one.
            let version = try await writer.trackedVersion()
            _ = try await eventually { (b.reloader.current.trackedVersion ?? 0) >= version }
            #expect(b.reloader.current.trackedVersion == version)
            let built = try await LocationIndex.build(from: writer)
            await writer.close()
            let served = try #require(b.engine.index)
            #expect(served.count == built.count && served.count == 40)
            let now = Date()
            for point in Self.points {
                for cards in [["target"], ["costco"], [], ["Costco Wholesale", "target"]] {
                    let p = RefreshParameters(center: point, cardNetworks: cards, explain: true)
                    let mine = try RegionRefreshEngine(index: served).select(p, now: now).wireJSON()
                    let theirs = try RegionRefreshEngine(index: built).select(p, now: now).wireJSON()
                    #expect(mine == theirs, "\(cards) at \(point): the replica and a fresh build answer differently")
                }
            }
        }
        await PostgresServers.drop(url)
    }
}
