import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import RefreshServer

/// What the admin API answers for a location, it takes back: a GET's body PUT to the same URL changes nothing, the
/// public API's `lat`/`lon` are taken, the fields the store sets are checked rather than silently dropped, and the
/// clearest message reaches the client.
@Suite("admin API: a location's answer is a body it takes")
struct AdminLocationRoundTripTests {
    static let one = "/admin/locations/{id}"

    @Test func aGetsBodyPutBackChangesNothing() async throws {
        try await withServer { client, _ in
            let shown = try await client.send(.get, "/admin/locations/loc_costco_sf", route: Self.one, headers: .admin)
            #expect(shown.status == 200, "\(shown.text)")
            let put = try await client.send(.put, "/admin/locations/loc_costco_sf", route: Self.one, headers: .admin, body: shown.text)
            #expect(put.status == 200 && put.json?["outcome"]?.string == "unchanged", "\(put.text)")
            let after = try await client.send(.get, "/admin/locations/loc_costco_sf", route: Self.one, headers: .admin)
            #expect(after.text == shown.text)
            // PATCH with the same body: the same.
            let patch = try await client.send(.patch, "/admin/locations/loc_costco_sf", route: Self.one, headers: .admin, body: shown.text)
            #expect(patch.status == 200 && patch.json?["outcome"]?.string == "unchanged", "\(patch.text)")
        }
    }

    @Test func readOnlyFieldsThatDifferAreRefusedNamingThem() async throws {
        try await withServer { client, _ in
            let base = #""network_id": "costco", "external_id": "sf", "name": "Costco SF", "latitude": 37.77, "longitude": -122.413"#
            let otherId = try await client.send(
                .put, "/admin/locations/loc_costco_sf", route: Self.one, headers: .admin, body: "{\(base), \"id\": \"loc_costco_elsewhere\"}")
            #expect(otherId.status == 422 && otherId.text.contains("global id"), "\(otherId.text)")
            let otherImport = try await client.send(
                .put, "/admin/locations/loc_costco_sf", route: Self.one, headers: .admin, body: "{\(base), \"source_import_id\": 999}")
            #expect(otherImport.status == 422 && otherImport.text.contains("source_import_id"), "\(otherImport.text)")
            let twoNetworks = try await client.send(
                .patch, "/admin/locations/loc_costco_sf", route: Self.one, headers: .admin, body: #"{"network": "costco", "network_id": "sfpl"}"#)
            #expect(
                twoNetworks.status == 422 && twoNetworks.json?["error"]?.string == "conflicting_fields"
                    && twoNetworks.json?["field"]?.string == "network_id", "\(twoNetworks.text)")
            // What schemathesis found: a clearing null beside a value under the other name is a contradiction too.
            let clearedAndSet = try await client.send(
                .put, "/admin/locations/loc_costco_sf", route: Self.one, headers: .admin,
                body: #"{"network": "costco", "external_id": "sf", "latitude": 37.77, "lon": 0, "longitude": null}"#)
            #expect(clearedAndSet.status == 422 && clearedAndSet.json?["field"]?.string == "lon", "\(clearedAndSet.text)")
        }
    }

    @Test func thePublicAPIsLatAndLonAreTaken() async throws {
        try await withServer { client, _ in
            let created = try await client.send(
                .post, "/admin/locations", route: "/admin/locations", headers: .admin,
                body: #"{"network": "costco", "id": "latlon", "name": "Costco Lat Lon", "lat": 37.7611, "lon": -122.4222}"#)
            #expect(created.status == 201, "\(created.text)")
            #expect(created.json?["location"]?["latitude"]?.double == 37.7611 && created.json?["location"]?["longitude"]?.double == -122.4222)
            // POST of an answer's body with external_id: its global id must be the one the location gets.
            let copy = try await client.send(
                .post, "/admin/locations", route: "/admin/locations", headers: .admin,
                body: #"{"id": "loc_costco_wrong", "network_id": "costco", "external_id": "copy", "lat": 37.7612, "lon": -122.4223}"#)
            #expect(copy.status == 422 && copy.text.contains("loc_costco_copy"), "\(copy.text)")
        }
    }

    @Test func anUnknownFieldIsNamedWithTheOneItMeant() async throws {
        try await withServer { client, _ in
            let reply = try await client.send(
                .post, "/admin/locations", route: "/admin/locations", headers: .admin,
                body: #"{"network": "costco", "id": "x", "lattitude": 37.7, "longitude": -122.4}"#)
            #expect(reply.status == 400 && reply.json?["error"]?.string == "invalid_field" && reply.json?["field"]?.string == "lattitude")
            #expect(reply.json?["message"]?.string == "a location has no field 'lattitude' (did you mean 'latitude'?)", "\(reply.text)")
            let key = try await client.send(.post, "/admin/keys", route: "/admin/keys", headers: .admin, body: #"{"name": "k", "rol": "read"}"#)
            #expect(key.status == 400 && key.json?["message"]?.string == "a key has no field 'rol' (did you mean 'role'?)", "\(key.text)")
        }
    }

    @Test func aBodyOverTheLimitGetsOneMessageHoweverItIsSent() async throws {
        let smallBodies: (inout ServerConfiguration) -> Void = { $0.maxBodyBytes = 1_000 }
        try await withServer(over: .live, configure: smallBodies) { client, _ in
            let big = #"{"lat": 37.77, "lon": -122.41, "pad": ""# + String(repeating: "x", count: 2_000) + #""}"#
            let sized = try await client.send(.post, "/v1/region-refresh", body: big)
            // Chunked, with no Content-Length: the limit is met while the body is read.
            let raw = try RawConnection(port: try #require(client.port))
            let chunk = String(big.utf8.count, radix: 16)
            try raw.write(
                "POST /v1/region-refresh HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                    + "Connection: close\r\n\r\n\(chunk)\r\n\(big)\r\n0\r\n\r\n")
            let answer = raw.readResponse()
            let chunkedBody = answer.range(of: "\r\n\r\n").map { String(answer[$0.upperBound...]) } ?? ""
            let chunked = (
                status: answer.hasPrefix("HTTP/1.1 413") ? 413 : 0,
                json: (try? JSONSerialization.jsonObject(with: Data(chunkedBody.utf8))) as? [String: Any]
            )
            #expect(sized.status == 413 && chunked.status == 413, "\(sized.text) / \(answer)")
            #expect(sized.json?["message"]?.string == chunked.json?["message"] as? String, "\(sized.text) / \(answer)")
            #expect(sized.json?["message"]?.string?.contains("1000 bytes") == true, "\(sized.text)")
        }
    }
}
