import Foundation
import HTTPTypes
import HummingbirdTesting
import LocationStore
import SQLiteStore
import TestSupport
import Testing

@testable import RefreshServer

@Suite("admin API and its bearer token")
struct AdminAPITests {
    @Test func withoutAConfiguredTokenTheAdminAPIDoesNotExist() async throws {
        let configure: (inout ServerConfiguration) -> Void = { $0.adminToken = nil }

        try await withServer(configure: configure) { client, _ in
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
            let prefix = try await client.send(
                .put, "/admin/networks/target", route: "/admin/networks/{id}", headers: [.authorization: "Bearer test-admin"],
                body: #"{"name": "Target"}"#)
            #expect(prefix.status == 403)
            let right = try await client.send(.get, "/admin/imports", headers: .admin)
            #expect(right.status == 200)
            #expect(right.json?["imports"]?.array?.isEmpty == true)
        }
    }

    @Test func constantTimeCompareAgreesWithEquality() {
        let token = Array("secret-token-123456".utf8)
        #expect(BearerToken.constantTimeEquals(token, token))
        #expect(!BearerToken.constantTimeEquals(token, Array("secret-token-123457".utf8)))
        #expect(!BearerToken.constantTimeEquals(token, Array("secret-token-12345".utf8)))
        #expect(!BearerToken.constantTimeEquals(token, []))
        #expect(!BearerToken.constantTimeEquals([], token))
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
            let badCursor = try await client.send(.get, "/admin/imports?cursor=x", headers: .admin)
            #expect(badCursor.status == 400 && badCursor.json?["field"]?.string == "cursor")
        }
    }

    @Test func theImportLogPagesNewestFirst() async throws {
        try await withServer { client, _ in
            let csv = HTTPFields.admin.merging([.contentType: "text/csv"])
            for i in 0..<5 {
                let r = try await client.send(
                    .post, "/admin/imports?network=acme&file_name=f\(i).csv", headers: csv, body: "id,lat,lon\n\(i),40.7\(i)1234,-74.01234\n",
                    json: false)
                #expect(r.status == 200)
            }
            var names: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let page = try await client.send(.get, "/admin/imports?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""), headers: .admin)
                names += (page.json?["imports"]?.array ?? []).compactMap { $0["file_name"]?.string }
                cursor = page.json?["next_cursor"]?.string
                pages += 1
            } while cursor != nil && pages < 10
            #expect(pages == 3)
            #expect(names == ["f4.csv", "f3.csv", "f2.csv", "f1.csv", "f0.csv"])
        }
    }

    @Test("an import's issues come a page at a time, and the pages hold every issue the store logged, in order")
    func importIssuesArePaged() async throws {
        let store = try TestStore()
        defer { store.remove() }
        try await withServer(store: store) { client, _ in
            let csv = HTTPFields.admin.merging([.contentType: "text/csv"])
            // 250 rows without coordinates: 250 rejections logged.
            let rows = (0..<250).map { "\($0),," }.joined(separator: "\n")
            let imported = try await client.send(.post, "/admin/imports?network=acme", headers: csv, body: "id,lat,lon\n" + rows + "\n", json: false)
            let id = try #require(imported.json?["files"]?.array?.first?["import_id"]?.int ?? imported.json?["import_id"]?.int)
            var lines: [Int] = []
            var cursor: String?
            var pages = 0
            repeat {
                let page = try await client.send(
                    .get, "/admin/imports/\(id)?limit=100" + (cursor.map { "&cursor=\($0)" } ?? ""), route: "/admin/imports/{id}", headers: .admin)
                #expect(page.status == 200 && page.json?["issue_count"]?.int == 250, "\(page.text.prefix(300))")
                let issues = page.json?["issues"]?.array ?? []
                #expect(issues.count <= 100)
                lines += issues.compactMap { $0["line"]?.int }
                cursor = page.json?["next_cursor"]?.string
                pages += 1
            } while cursor != nil && pages < 10
            #expect(pages == 3)
            let stored = try SQLiteLocationStore(path: store.path).importRecord(id: Int64(id))
            #expect(lines == stored?.issues.map(\.line), "the pages are the store's issues, in order")
            let past = try await client.send(
                .get, "/admin/imports/\(id)?cursor=9223372036854775807", route: "/admin/imports/{id}", headers: .admin)
            #expect(past.status == 200 && past.json?["issues"]?.array?.isEmpty == true && past.json?["next_cursor"] == nil)
            let firstPage = try await client.send(.get, "/admin/imports/\(id)", route: "/admin/imports/{id}", headers: .admin)
            #expect(firstPage.json?["issues"]?.array?.count == 100, "the default page is 100 issues")
        }
    }

    @Test func putNetworkThenAliasIsServedAfterTheRebuild() async throws {
        try await withServer { client, built in
            let put = try await client.send(
                .put, "/admin/networks/target", route: "/admin/networks/{id}", headers: .admin,
                body: #"{"name": "Target", "category": "grocery", "default_radius_meters": 150}"#)
            #expect(put.status == 200)
            #expect(put.json?["id"]?.string == "target")
            #expect(put.json?["default_radius_meters"]?.int == 150)
            let alias = try await client.send(
                .post, "/admin/networks/target/aliases", route: "/admin/networks/{id}/aliases",
                headers: .admin, body: #"{"alias": "Target Stores"}"#)
            #expect(alias.status == 201)
            #expect(alias.json?["network_id"]?.string == "target")
            try await waitForReload(built, count: 2)
            // A rebuild may still be queued behind the alias; wait until the list shows both changes.
            var listed: [JSONValue] = []
            _ = try await eventually {
                listed = try await client.send(.get, "/v1/networks").json?["networks"]?.array ?? []
                return listed.contains(where: { $0["id"]?.string == "target" && $0["aliases"]?.array?.isEmpty == false })
            }
            let target = listed.first { $0["id"]?.string == "target" }
            #expect(target?["name"]?.string == "Target")
            #expect(target?["location_count"]?.int == 0)
            #expect(target?["aliases"]?.array?.isEmpty == false)
        }
    }

    @Test func networkEditsAreValidated() async throws {
        try await withServer { client, _ in
            // Any spelling of an id is taken as its slug; one without a letter or digit has none.
            let spelled = try await client.send(
                .put, "/admin/networks/Not_A_Slug", route: "/admin/networks/{id}", headers: .admin,
                body: #"{"name": "X"}"#)
            #expect(spelled.status == 200 && spelled.json?["id"]?.string == "not-a-slug")
            let accented = try await client.send(
                .put, "/admin/networks/Caf%C3%A9%20Fazer", route: "/admin/networks/{id}", headers: .admin,
                body: #"{"name": "Fazer"}"#)
            #expect(accented.status == 200 && accented.json?["id"]?.string == "cafe-fazer")
            let slug = try await client.send(
                .put, "/admin/networks/%23%23", route: "/admin/networks/{id}", headers: .admin,
                body: #"{"name": "X"}"#)
            #expect(slug.status == 404)
            let blank = try await client.send(
                .put, "/admin/networks/%20%E2%80%83", route: "/admin/networks/{id}", headers: .admin,
                body: #"{"name": "X"}"#)
            #expect(blank.status == 400)
            for body in [
                #"{"name": " \u00a0 "}"#, #"{"name": "a\u0007b"}"#, #"{"name": "X", "category": "a\u001bb"}"#,
                "{\"name\": \"\(String(repeating: "é", count: 201))\"}",
            ] {
                let refused = try await client.send(.put, "/admin/networks/x", route: "/admin/networks/{id}", headers: .admin, body: body)
                #expect(refused.status == 400, "\(body.prefix(40))")
            }
            // 200 characters of two bytes each is within the limit, which counts characters as the document does.
            let long = try await client.send(
                .put, "/admin/networks/x", route: "/admin/networks/{id}", headers: .admin,
                body: "{\"name\": \"\(String(repeating: "é", count: 200))\", \"default_radius_meters\": null}")
            #expect(long.status == 200)
            for alias in [#"\u0007\u0019"#, #" \u3000 "#, "a\\tb"] {
                let refused = try await client.send(
                    .post, "/admin/networks/x/aliases", route: "/admin/networks/{id}/aliases", headers: .admin,
                    body: #"{"alias": "\#(alias)"}"#)
                #expect(refused.status == 400, "\(alias)")
            }
            // Any visible spelling is an alias, one without letters or digits ("#") as written.
            for alias in ["スターバックス", "#", "★ Star"] {
                let added = try await client.send(
                    .post, "/admin/networks/x/aliases", route: "/admin/networks/{id}/aliases", headers: .admin,
                    body: #"{"alias": "\#(alias)"}"#)
                #expect(added.status == 201, "\(alias)")
            }
            let noName = try await client.send(.put, "/admin/networks/x", route: "/admin/networks/{id}", headers: .admin, body: "{}")
            #expect(noName.status == 400)
            let radius = try await client.send(
                .put, "/admin/networks/x", route: "/admin/networks/{id}", headers: .admin,
                body: #"{"name": "X", "default_radius_meters": -3}"#)
            #expect(radius.status == 400)
            #expect(radius.json?["field"]?.string == "default_radius_meters")
            let unknown = try await client.send(
                .post, "/admin/networks/nobody/aliases", route: "/admin/networks/{id}/aliases",
                headers: .admin, body: #"{"alias": "Nobody Inc"}"#)
            #expect(unknown.status == 404)
            let text = try await client.send(
                .post, "/admin/networks/costco/aliases", route: "/admin/networks/{id}/aliases",
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
