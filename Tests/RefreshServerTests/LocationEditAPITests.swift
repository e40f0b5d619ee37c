import Foundation
import HTTPTypes
import HummingbirdTesting
import LocationStore
import RegionRefresh
import Testing

@testable import RefreshServer

/// One location added, changed and deleted over the admin API: the import's checks and reason codes, and every
/// answer given once the server serves the result (the next region-refresh sees it).
@Suite("admin API: one-location edits")
struct LocationEditAPITests {
    static let one = "/admin/locations/{id}"
    static let here = #"{"lat": 37.7601, "lon": -122.4501, "user_networks": ["costco"], "max_regions": 100}"#

    func servedIds(_ client: any ServerClient) async throws -> [String] {
        let refresh = try await client.send(.post, "/v1/region-refresh", body: Self.here)
        return (refresh.json?["regions"]?.array ?? []).compactMap { $0["id"]?.string }
    }

    @Test func aLocationCreatedIsServedByTheNextRefreshAndGoneAfterItsDelete() async throws {
        try await withServer { client, _ in
            #expect(try await !servedIds(client).contains("loc_costco_t1"))
            let created = try await client.send(
                .post, "/admin/locations", route: "/admin/locations", headers: .admin,
                body:
                    #"{"network": "Costco", "id": "t1", "name": "Costco Test", "address": "1 Test St", "latitude": 37.7601, "longitude": -122.4501}"#)
            #expect(created.status == 201, "\(created.text)")
            #expect(created.json?["location"]?["id"]?.string == "loc_costco_t1" && created.json?["outcome"]?.string == "inserted")
            #expect(created.headers[.location] == "/admin/locations/loc_costco_t1")
            #expect(try await servedIds(client).contains("loc_costco_t1"), "read your writes")

            let shown = try await client.send(.get, "/admin/locations/loc_costco_t1", route: Self.one, headers: .admin)
            #expect(shown.status == 200 && shown.json?["address"]?.string == "1 Test St")
            let patched = try await client.send(
                .patch, "/admin/locations/loc_costco_t1", route: Self.one, headers: .admin, body: #"{"name": "Costco Renamed", "address": null}"#)
            #expect(patched.status == 200 && patched.json?["outcome"]?.string == "updated", "\(patched.text)")
            #expect(patched.json?["location"]?["name"]?.string == "Costco Renamed" && patched.json?["location"]?["address"] == nil)
            #expect(patched.json?["location"]?["latitude"]?.double == 37.7601, "a field left out of a PATCH stays")

            let deleted = try await client.send(.delete, "/admin/locations/loc_costco_t1", route: Self.one, headers: .admin)
            #expect(deleted.status == 204)
            #expect(try await !servedIds(client).contains("loc_costco_t1"), "gone from the very next refresh")
            let again = try await client.send(.delete, "/admin/locations/loc_costco_t1", route: Self.one, headers: .admin)
            #expect(again.status == 404)
        }
    }

    @Test func badEditsGetTheImportsReasonsAndNothingIsWritten() async throws {
        try await withServer { client, built in
            let before = built.engine.index?.count
            func post(_ body: String) async throws -> Reply {
                try await client.send(.post, "/admin/locations", route: "/admin/locations", headers: .admin, body: body)
            }
            let unknown = try await post(#"{"network": "nope", "id": "x", "latitude": 37.7, "longitude": -122.4}"#)
            #expect(unknown.status == 422 && unknown.json?["error"]?.string == "unknown_network" && unknown.json?["field"]?.string == "network")
            let outside = try await post(#"{"network": "costco", "id": "x", "latitude": 91, "longitude": -122.4}"#)
            #expect(outside.status == 422 && outside.json?["error"]?.string == "out_of_range", "\(outside.text)")
            let missing = try await post(#"{"network": "costco", "id": "x", "name": "No point"}"#)
            #expect(missing.status == 422, "\(missing.text)")
            let misspelt = try await post(#"{"network": "costco", "id": "x", "lattitude": 37.7, "longitude": -122.4}"#)
            #expect(misspelt.status == 400 && misspelt.text.contains("lattitude"), "\(misspelt.text)")
            let control = try await post(#"{"network": "costco", "id": "x", "name": "a\u0007b", "latitude": 37.7, "longitude": -122.4}"#)
            #expect(control.status == 400 && control.json?["field"]?.string == "name")
            #expect(built.engine.index?.count == before, "nothing was written")

            let first = try await post(#"{"network": "costco", "id": "dup", "latitude": 37.7, "longitude": -122.4}"#)
            #expect(first.status == 201)
            let taken = try await post(#"{"network": "costco", "id": "dup", "latitude": 37.7, "longitude": -122.4}"#)
            #expect(taken.status == 409 && taken.json?["error"]?.string == "location_exists")
            let moved = try await client.send(
                .patch, "/admin/locations/loc_costco_dup", route: Self.one, headers: .admin, body: #"{"network": "bluebottle"}"#)
            #expect(moved.status == 422, "an edit never moves a location to another network")
            let noAuth = try await client.send(.delete, "/admin/locations/loc_costco_dup", route: Self.one)
            #expect(noAuth.status == 401)
        }
    }
}
