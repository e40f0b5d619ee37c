import Foundation
import HTTPTypes
import HummingbirdTesting
import LocationStore
import NIOCore
import Testing

@testable import RefreshServer

/// `GET /v1/networks` answers a page at a time: a million networks are never one response.
@Suite("networks listing: pages and search")
struct NetworkPagingTests {
    static func ids(_ reply: Reply) -> [String] { (reply.json?["networks"]?.array ?? []).compactMap { $0["id"]?.string } }

    @Test func pagesFollowTheCursorAndSearchMatchesNameCategoryAndAliases() async throws {
        try await withServer { client, _ in
            let all = try await client.send(.get, "/v1/networks")
            #expect(Self.ids(all) == ["bluebottle", "costco", "sfpl"])
            #expect(all.json?["next_cursor"] == nil)
            let first = try await client.send(.get, "/v1/networks?limit=2")
            #expect(Self.ids(first) == ["bluebottle", "costco"])
            let cursor = try #require(first.json?["next_cursor"]?.string)
            #expect(cursor == "costco")
            let rest = try await client.send(.get, "/v1/networks?limit=2&cursor=\(cursor)")
            #expect(Self.ids(rest) == ["sfpl"] && rest.json?["next_cursor"] == nil)
            #expect(Self.ids(try await client.send(.get, "/v1/networks?q=LIBRARY")) == ["sfpl"], "category, any case")
            #expect(Self.ids(try await client.send(.get, "/v1/networks?q=Public%20Library")) == ["sfpl"], "name")
            #expect(Self.ids(try await client.send(.get, "/v1/networks?q=zzz")).isEmpty)
            for bad in ["limit=0", "limit=10001", "limit=x", "cursor=", "page=2", "q=%1B"] {
                let reply = try await client.send(.get, "/v1/networks?\(bad)", route: "/v1/networks")
                #expect(reply.status == 400, "\(bad)")
            }
        }
    }

    @Test func theCatalogPagesAMillionNetworksWithoutSendingThemAll() {
        let catalog = NetworkCatalog()
        catalog.update((0..<20_000).map { NetworkSummary(network: Network(id: String(format: "n%05d", $0), name: "N \($0)"), locationCount: 1) })
        let first = String(buffer: catalog.page(NetworkCatalog.Page())!)
        #expect(first.components(separatedBy: "\"id\":").count - 1 == 1_000)
        #expect(first.contains(#""next_cursor":"n00999""#))
        var page = NetworkCatalog.Page()
        page.cursor = "n19990"
        let last = String(buffer: catalog.page(page)!)
        #expect(last.components(separatedBy: "\"id\":").count - 1 == 9 && !last.contains("next_cursor"))
    }
}
