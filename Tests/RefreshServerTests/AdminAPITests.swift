import Foundation
import HTTPTypes
import HummingbirdTesting
@testable import RefreshServer
import Testing

@Suite("admin API and its bearer token")
struct AdminAPITests {
    @Test func withoutAConfiguredTokenTheAdminAPIDoesNotExist() async throws {
        try await withServer(configure: { $0.adminToken = nil }) { client, _ in
            let reply = try await client.send(.get, "/admin/imports", headers: .admin)
            #expect(reply.status == 404)
            #expect(reply.json?["error"]?.string == "not_found")
        }
    }

    @Test func missingMalformedAndWrongTokens() async throws {
        try await withServer { client, _ in
            let none = try await client.send(.get, "/admin/imports")
            #expect(none.status == 401)
            #expect(none.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            let basic = try await client.send(.get, "/admin/imports", headers: [.authorization: "Basic dXNlcjpwYXNz"])
            #expect(basic.status == 401)
            let wrong = try await client.send(.get, "/admin/imports", headers: [.authorization: "Bearer \(adminToken)x"])
            #expect(wrong.status == 403)
            #expect(wrong.json?["error"]?.string == "forbidden")
            let prefix = try await client.send(.put, "/admin/networks/target", route: "/admin/networks/{id}", headers: [.authorization: "Bearer test-admin"],
                                               body: #"{"name": "Target"}"#)
            #expect(prefix.status == 403)
            let right = try await client.send(.get, "/admin/imports", headers: .admin)
            #expect(right.status == 200)
            #expect(right.json?["imports"]?.array?.isEmpty == true)
        }
    }

    @Test func constantTimeCompareAgreesWithEquality() {
        let token = Array("secret-token-123456".utf8)
        #expect(BearerAuthMiddleware.constantTimeEquals(token, token))
        #expect(!BearerAuthMiddleware.constantTimeEquals(token, Array("secret-token-123457".utf8)))
        #expect(!BearerAuthMiddleware.constantTimeEquals(token, Array("secret-token-12345".utf8)))
        #expect(!BearerAuthMiddleware.constantTimeEquals(token, []))
        #expect(!BearerAuthMiddleware.constantTimeEquals([], token))
    }

    @Test func importLogLookups() async throws {
        try await withServer { client, _ in
            let missing = try await client.send(.get, "/admin/imports/999", route: "/admin/imports/{id}", headers: .admin)
            #expect(missing.status == 404)
            let bad = try await client.send(.get, "/admin/imports/abc", route: "/admin/imports/{id}", headers: .admin)
            #expect(bad.status == 400)
            #expect(bad.json?["field"]?.string == "id")
            let badLimit = try await client.send(.get, "/admin/imports?limit=0", headers: .admin)
            #expect(badLimit.status == 400)
        }
    }

    @Test func putNetworkThenAliasIsServedAfterTheRebuild() async throws {
        try await withServer { client, built in
            let put = try await client.send(.put, "/admin/networks/target", route: "/admin/networks/{id}", headers: .admin,
                                            body: #"{"name": "Target", "category": "grocery", "default_radius_meters": 150}"#)
            #expect(put.status == 200)
            #expect(put.json?["id"]?.string == "target")
            #expect(put.json?["default_radius_meters"]?.int == 150)
            let alias = try await client.send(.post, "/admin/networks/target/aliases", route: "/admin/networks/{id}/aliases",
                                              headers: .admin, body: #"{"alias": "Target Stores"}"#)
            #expect(alias.status == 201)
            #expect(alias.json?["network_id"]?.string == "target")
            try await waitForReload(built, count: 2)
            // A rebuild may still be queued behind the alias; wait until the list shows both changes.
            var listed: [JSONValue] = []
            for _ in 0..<200 {
                listed = try await client.send(.get, "/v1/networks").json?["networks"]?.array ?? []
                if listed.contains(where: { $0["id"]?.string == "target" && $0["aliases"]?.array?.isEmpty == false }) { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            let target = listed.first { $0["id"]?.string == "target" }
            #expect(target?["name"]?.string == "Target")
            #expect(target?["location_count"]?.int == 0)
            #expect(target?["aliases"]?.array?.isEmpty == false)
        }
    }

    @Test func networkEditsAreValidated() async throws {
        try await withServer { client, _ in
            let slug = try await client.send(.put, "/admin/networks/Not_A_Slug", route: "/admin/networks/{id}", headers: .admin,
                                             body: #"{"name": "X"}"#)
            #expect(slug.status == 400)
            let noName = try await client.send(.put, "/admin/networks/x", route: "/admin/networks/{id}", headers: .admin, body: "{}")
            #expect(noName.status == 400)
            let radius = try await client.send(.put, "/admin/networks/x", route: "/admin/networks/{id}", headers: .admin,
                                               body: #"{"name": "X", "default_radius_meters": -3}"#)
            #expect(radius.status == 400)
            #expect(radius.json?["field"]?.string == "default_radius_meters")
            let unknown = try await client.send(.post, "/admin/networks/nobody/aliases", route: "/admin/networks/{id}/aliases",
                                                headers: .admin, body: #"{"alias": "Nobody Inc"}"#)
            #expect(unknown.status == 404)
            let text = try await client.send(.post, "/admin/networks/costco/aliases", route: "/admin/networks/{id}/aliases",
                                             headers: .admin.merging([.contentType: "text/plain"]), body: "Costco")
            #expect(text.status == 415)
        }
    }
}

extension HTTPFields {
    func merging(_ other: HTTPFields) -> HTTPFields {
        var out = self
        for field in other { out[field.name] = field.value }
        return out
    }
}
