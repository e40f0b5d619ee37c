import Foundation
import HTTPTypes
import OnCueContract
import RegionRefresh
import Testing

@testable import RefreshServer

/// A region-refresh in a dense cluster is tried on the I/O thread with a small budget, then done in full off it: the
/// answer is the full selection's, and probes are answered meanwhile.
@Suite("dense selections off the I/O threads")
struct DenseSelectionServerTests {
    @Test func aPileUpIsSelectedInFullOffTheIOThreads() async throws {
        try await withServer { client, built in
            var csv = "id,name,lat,lon\n"
            for i in 0..<3_000 { csv += "\(i),Pile \(i),40.712345,-74.012345\n" }
            let imported = try await client.send(
                .post, "/admin/imports?network=pile", headers: .admin.merging([.contentType: "text/csv"]), body: csv, json: false)
            #expect(imported.status == 200, "\(imported.text.prefix(200))")
            let body = #"{"lat": 40.712345, "lon": -74.012345, "user_networks": ["pile"], "max_regions": 20}"#
            let answer = try await client.send(.post, "/v1/region-refresh", body: body)
            #expect(answer.status == 200)
            #expect(answer.json?["selection_limited"]?.bool == true)
            // The full budgets' answer, not the inline attempt's: more members merged into the one region.
            let parameters = try Array(body.utf8).withUnsafeBytes { try RegionRefreshRequest.decode(jsonBytes: $0) }.validated()
            let full = try built.engine.select(parameters, now: Date()).response()
            let inline = try built.engine.select(
                parameters, now: Date(), candidateBudget: PublicRoutes.inlineCandidateBudget, visitBudget: PublicRoutes.inlineVisitBudget
            ).response()
            let merged = try #require(full.regions.first?.mergedCount)
            #expect(merged > (inline.regions.first?.mergedCount ?? 0))
            #expect(answer.json?["regions"]?.array?.first?["merged_count"]?.int == merged)
            #expect(try await client.send(.get, "/healthz").status == 200)
        }
    }
}
