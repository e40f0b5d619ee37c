import Foundation
import HTTPTypes
import RefreshServer
import TestSupport
import Testing

/// A network deleted or merged while an import runs is refused with a time to retry (409, Retry-After), never a 503
/// and never a wait on the import's transaction; once the import is done the same request goes through.
@Suite struct AdminDuringImportTests {
    @Test func deleteAndMergeWaitForNoImport() async throws {
        try await withServer { client, built in
            let seed = try await client.send(
                .post, "/admin/imports?network=other&file_name=seed.csv", headers: HTTPFields.admin.merging([.contentType: "text/csv"]),
                body: ImportSwapTests.manhattanCSV(count: 10), json: false)
            #expect(seed.status == 200)
            let headers = HTTPFields.admin.merging([.contentType: "text/csv", HTTPField.Name("Prefer")!: "respond-async"])
            let started = try await client.send(
                .post, "/admin/imports?network=target&file_name=big.csv", headers: headers, body: ImportSwapTests.manhattanCSV(count: 40_000),
                json: false)
            #expect(started.status == 202)
            let job = try #require(started.json?["job"]?.string)
            func status() async throws -> String {
                try await client.send(.get, "/admin/jobs/\(job)", route: "/admin/jobs/{id}", headers: .admin).json?["status"]?.string ?? "?"
            }
            let delete = try await client.send(.delete, "/admin/networks/other", route: "/admin/networks/{id}", headers: .admin)
            let merge = try await client.send(
                .post, "/admin/networks/other/merge", route: "/admin/networks/{id}/merge", headers: .admin, body: #"{"into": "target"}"#)
            // The import's gate was held throughout if the job still runs now (it is left after the job's status is set).
            try #require(try await status() == "running", "the import finished before the requests: make it larger")
            for reply in [delete, merge] {
                #expect(reply.status == 409, "\(reply.text)")
                #expect(reply.json?["error"]?.string == "import_in_progress")
                #expect(reply.headers[.retryAfter] == "5")
            }
            #expect(try await eventually(within: .seconds(120)) { try await status() == "committed" })
            try await waitForReload(built, count: 3)
            let after = try await client.send(.delete, "/admin/networks/other", route: "/admin/networks/{id}", headers: .admin)
            #expect(after.status == 200 && after.json?["locations_removed"]?.int == 10, "\(after.text)")
        }
    }
}

/// An admin reads what they just wrote, whatever replica the server reads its index from: the import log is read
/// from the primary. A replica that lags is played by a second store the import never reaches.
@Suite struct AdminReadsOwnWritesTests {
    @Test func theImportLogIsReadFromThePrimary() async throws {
        let lagging = try TestStore()
        defer { lagging.remove() }
        let readFromLagging: (inout ServerConfiguration) -> Void = { $0.readDatabase = lagging.path }
        try await withServer(configure: readFromLagging) { client, _ in
            let imported = try await client.send(
                .post, "/admin/imports?network=target&file_name=ten.csv", headers: HTTPFields.admin.merging([.contentType: "text/csv"]),
                body: ImportSwapTests.manhattanCSV(count: 10), json: false)
            let id = try #require(imported.json?["files"]?.array?.first?["import_id"]?.int, "\(imported.text)")
            let shown = try await client.send(.get, "/admin/imports/\(id)", route: "/admin/imports/{id}", headers: .admin)
            #expect(shown.status == 200, "\(shown.text)")
            let listed = try await client.send(.get, "/admin/imports", headers: .admin)
            #expect(listed.json?["imports"]?.array?.compactMap { $0["id"]?.int }.contains(id) == true, "\(listed.text)")
        }
    }

    /// Each network or alias write is in the public catalog the moment its answer arrives (no wait, no retry).
    @Test func everyNetworkWriteIsListedWhenItsAnswerArrives() async throws {
        // 181 requests from one client: on an idle machine they come faster than the default rate limit allows.
        let unlimited: (inout ServerConfiguration) -> Void = { $0.rateLimit = nil }
        try await withServer(configure: unlimited) { client, _ in
            for i in 0..<60 {
                let put = try await client.send(
                    .put, "/admin/networks/chain-\(i)", route: "/admin/networks/{id}", headers: .admin, body: #"{"name": "Chain \#(i)"}"#)
                #expect(put.status == 200)
                let alias = try await client.send(
                    .post, "/admin/networks/chain-\(i)/aliases", route: "/admin/networks/{id}/aliases", headers: .admin,
                    body: #"{"alias": "Shop \#(i)"}"#)
                #expect(alias.status == 201)
                let listed = try await client.send(.get, "/v1/networks?q=chain-\(i)&limit=5").json?["networks"]?.array ?? []
                let entry = listed.first { $0["id"]?.string == "chain-\(i)" }
                #expect(entry?["aliases"]?.array?.contains { $0.string == "Shop \(i)" } == true, "write \(i): \(listed)")
            }
            let all = try await client.send(.get, "/v1/networks?limit=500").json?["networks"]?.array ?? []
            #expect(all.filter { $0["id"]?.string?.hasPrefix("chain-") == true }.count == 60)
        }
    }
}
