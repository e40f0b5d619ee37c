import Foundation
import HTTPTypes
import LocationStore
import TestSupport
import Testing

@testable import RefreshServer

/// The audit log of an import, a merge and a key revocation: each names the key that acted, the route, the path and the
/// status, newest first, and pages back without gaps.
@Suite("Audit trail")
struct AuditTrailTests {
    @Test("an import, a merge and a revocation are logged with their keys, routes and results")
    func importMergeRevoke() async throws {
        try await withServer { client, _ in
            let importer = try await AdminRoleTests.makeKey(client, role: .import, name: "importer")
            let csv = "store_id,name,lat,lon\na1,Alpha,37.77,-122.41\na2,Beta,37.78,-122.42\n"
            let imported = try await client.send(
                .post, "/admin/imports?network=alpha-mart", headers: [.authorization: "Bearer \(importer.token)", .contentType: "text/csv"],
                body: csv, json: false)
            #expect(imported.status == 200, "\(imported.text)")
            // The importer may not merge; the bootstrap admin may.
            let refused = try await client.send(
                .post, "/admin/networks/alpha-mart/merge", route: "/admin/networks/{id}/merge",
                headers: [.authorization: "Bearer \(importer.token)"], body: #"{"into": "costco"}"#)
            #expect(refused.status == 403)
            let merged = try await client.send(
                .post, "/admin/networks/alpha-mart/merge", route: "/admin/networks/{id}/merge", headers: .admin, body: #"{"into": "costco"}"#)
            #expect(merged.status == 200, "\(merged.text)")
            let revoked = try await client.send(.delete, "/admin/keys/\(importer.id)", route: "/admin/keys/{id}", headers: .admin)
            #expect(revoked.status == 200)

            // Reads are not writes: listing the log adds nothing to it.
            _ = try await client.send(.get, "/admin/imports", headers: .admin)
            var entries: [JSONValue] = []
            var cursor: String?
            repeat {
                let page = try await client.send(
                    .get, "/admin/audit?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""), route: "/admin/audit", headers: .admin)
                entries += page.json?["entries"]?.array ?? []
                cursor = page.json?["next_cursor"]?.string
            } while cursor != nil
            let summary = entries.map { e in
                [e["key_id"]?.string ?? "", e["action"]?.string ?? "", e["target"]?.string ?? "", e["result"]?.string ?? ""]
            }
            #expect(
                summary == [
                    ["bootstrap", "DELETE /admin/keys/{id}", "/admin/keys/\(importer.id)", "200"],
                    ["bootstrap", "POST /admin/networks/{id}/merge", "/admin/networks/alpha-mart/merge", "200"],
                    [importer.id, "POST /admin/networks/{id}/merge", "/admin/networks/alpha-mart/merge", "403"],
                    // The request's options are part of its target.
                    [importer.id, "POST /admin/imports", "/admin/imports?network=alpha-mart", "200"],
                    ["bootstrap", "POST /admin/keys", "/admin/keys", "201"],
                ])
            let ids = entries.compactMap { $0["id"]?.int }
            #expect(ids == ids.sorted(by: >) && Set(ids).count == ids.count)
        }
    }

    @Test("a background import is logged twice: accepted when asked, and how its job ended, though it held the store's lock")
    func backgroundImport() async throws {
        try await withServer { client, _ in
            let rows = (0..<3_000).map { "b\($0),Store \($0),\(37.70 + Double($0 % 100) * 0.001),\(-122.45 + Double($0 / 100) * 0.001)" }
            let csv = "store_id,name,lat,lon\n" + rows.joined(separator: "\n") + "\n"
            let started = try await client.send(
                .post, "/admin/imports?network=beta-mart",
                headers: HTTPFields.admin.merging([.contentType: "text/csv", HTTPField.Name("Prefer")!: "respond-async"]), body: csv, json: false)
            #expect(started.status == 202)
            let job = try #require(started.json?["job"]?.string)
            let done = try await eventually(within: .seconds(120)) {
                try await client.send(.get, "/admin/jobs/\(job)", route: "/admin/jobs/{id}", headers: .admin).json?["status"]?.string != "running"
            }
            try #require(done)
            // What was recorded while the import ran is written once it has ended (its gate is left just after its status).
            let expected = [["import job", "/admin/jobs/\(job)", "committed"], ["POST /admin/imports", "/admin/imports?network=beta-mart", "202"]]
            var entries: [JSONValue] = []
            let logged = try await eventually(within: .seconds(10)) {
                entries = try await client.send(.get, "/admin/audit", headers: .admin).json?["entries"]?.array ?? []
                return entries.count >= 2
            }
            #expect(logged)
            let summary = entries.map { [$0["action"]?.string ?? "", $0["target"]?.string ?? "", $0["result"]?.string ?? ""] }
            #expect(Array(summary.prefix(2)) == expected)
            #expect(entries.first?["detail"]?.string?.hasPrefix("import #") == true, "\(entries.first?["detail"]?.string ?? "")")
        }
    }
}
