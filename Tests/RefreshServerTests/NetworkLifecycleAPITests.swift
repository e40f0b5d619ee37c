import Foundation
import HTTPTypes
import HummingbirdTesting
import LocationStore
import RegionRefresh
import Testing

@testable import RefreshServer

/// PATCH changes only what it is given, PUT replaces; DELETE and merge answer once the server serves the result.
@Suite("admin API: network lifecycle")
struct NetworkLifecycleAPITests {
    static let route = "/admin/networks/{id}"

    @Test func patchChangesOnlyTheFieldsGivenAndPutReplaces() async throws {
        try await withServer { client, _ in
            let set = try await client.send(
                .patch, "/admin/networks/costco", route: Self.route, headers: .admin, body: #"{"default_radius_meters": 250}"#)
            #expect(set.status == 200)
            #expect(set.json?["category"]?.string == "wholesale", "a field left out is unchanged")
            #expect(set.json?["default_radius_meters"]?.double == 250)
            let cleared = try await client.send(.patch, "/admin/networks/costco", route: Self.route, headers: .admin, body: #"{"category": null}"#)
            #expect(cleared.json?["category"] == nil && cleared.json?["default_radius_meters"]?.double == 250)
            let bad = try await client.send(
                .patch, "/admin/networks/costco", route: Self.route, headers: .admin, body: #"{"default_radius_meters": 0}"#)
            #expect(bad.status == 400 && bad.json?["field"]?.string == "default_radius_meters")
            let twice = try await client.send(
                .patch, "/admin/networks/costco", route: Self.route, headers: .admin, body: #"{"name": "A", "name": "B"}"#)
            #expect(twice.status == 400 && twice.json?["field"]?.string == "name", "\(twice.text)")
            let unknown = try await client.send(.patch, "/admin/networks/nope", route: Self.route, headers: .admin, body: #"{"name": "Nope"}"#)
            #expect(unknown.status == 404)
            // PUT replaces every setting: the radius given by PATCH is gone.
            let put = try await client.send(.put, "/admin/networks/costco", route: Self.route, headers: .admin, body: #"{"name": "Costco"}"#)
            #expect(put.status == 200 && put.json?["default_radius_meters"] == nil)
        }
    }

    @Test func lookAlikesAndBidiControlsAreRefused() async throws {
        try await withServer { client, _ in
            // "соstco" with Cyrillic с and о, percent-encoded in the path.
            let lookAlike = try await client.send(
                .put, "/admin/networks/%D1%81%D0%BEstco", route: Self.route, headers: .admin, body: #"{"name": "Costco"}"#)
            #expect(lookAlike.status == 422 && lookAlike.text.contains("looks like the existing network 'costco'"), "\(lookAlike.text)")
            let rlo = try await client.send(
                .patch, "/admin/networks/costco", route: Self.route, headers: .admin, body: #"{"name": "\u202Eoctsoc"}"#)
            #expect(rlo.status == 422 && rlo.json?["field"]?.string == "name")
            let alias = try await client.send(
                .post, "/admin/networks/costco/aliases", route: "/admin/networks/{id}/aliases", headers: .admin,
                body: #"{"alias": "\u0441\u043Estco"}"#)
            #expect(alias.status == 201, "a look-alike may be made an alias of the network it imitates")
            // An alias spelling another network's id would shadow it: 409, and that network still answers to its id.
            let shadow = try await client.send(
                .post, "/admin/networks/bluebottle/aliases", route: "/admin/networks/{id}/aliases", headers: .admin,
                body: #"{"alias": "COSTCO"}"#)
            #expect(shadow.status == 409 && shadow.json?["error"]?.string == "conflict", "\(shadow.text)")
            let refresh = try await client.send(
                .post, "/v1/region-refresh", body: #"{"lat": 37.75, "lon": -122.45, "user_networks": ["costco"], "max_regions": 100}"#)
            #expect(refresh.json?["resolved_networks"]?["costco"]?.string == "costco", "\(refresh.text)")
        }
    }

    @Test func deleteAnswersOnceTheIndexServesWithoutTheNetwork() async throws {
        try await withServer { client, built in
            let deleted = try await client.send(.delete, "/admin/networks/bluebottle", route: Self.route, headers: .admin)
            #expect(deleted.status == 200)
            #expect(deleted.json?["locations_removed"]?.double == 15)
            // Read your writes: the very next request is answered from an index without it.
            #expect(built.engine.index?.networkSummaries.contains { $0.network.id == "bluebottle" } == false)
            let refresh = try await client.send(
                .post, "/v1/region-refresh", body: #"{"lat": 37.75, "lon": -122.45, "user_networks": ["bluebottle"], "max_regions": 100}"#)
            #expect(refresh.json?["regions"]?.array?.contains { $0["network_id"]?.string == "bluebottle" } == false)
            #expect(refresh.json?["unknown_networks"]?.array?.map { $0.string } == ["bluebottle"])
            let again = try await client.send(.delete, "/admin/networks/bluebottle", route: Self.route, headers: .admin)
            #expect(again.status == 404)
        }
    }

    @Test func mergeMovesTheLocationsAndTheOldIdReachesTheTarget() async throws {
        try await withServer { client, _ in
            let merged = try await client.send(
                .post, "/admin/networks/sfpl/merge", route: "/admin/networks/{id}/merge", headers: .admin, body: #"{"into": "costco"}"#)
            #expect(merged.status == 200)
            #expect(merged.json?["moved"]?.double == 15)
            let refresh = try await client.send(
                .post, "/v1/region-refresh", body: #"{"lat": 37.75, "lon": -122.45, "user_networks": ["sfpl"], "include_other_networks": false}"#)
            let regions = refresh.json?["regions"]?.array ?? []
            #expect(regions.count == 16 && regions.allSatisfy { $0["network_id"]?.string == "costco" })
            let unknown: [JSONValue] = refresh.json?["unknown_networks"]?.array ?? []
            #expect(unknown.isEmpty)
            let selfMerge = try await client.send(
                .post, "/admin/networks/costco/merge", route: "/admin/networks/{id}/merge", headers: .admin, body: #"{"into": "Costco"}"#)
            #expect(selfMerge.status == 422)
        }
    }
}
