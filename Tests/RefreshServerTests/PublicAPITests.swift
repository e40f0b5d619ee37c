import Foundation
import HTTPTypes
import HummingbirdTesting
import OnCueContract
import RegionRefresh
import Testing

@testable import RefreshServer

@Suite("public API over HTTP")
struct PublicAPITests {
    @Test func healthAndReadiness() async throws {
        try await withServer { client, _ in
            let health = try await client.send(.get, "/healthz")
            #expect(health.status == 200)
            #expect(health.json?["status"]?.string == "ok")
            let ready = try await client.send(.get, "/readyz")
            #expect(ready.status == 200)
            #expect(ready.json?["locations"]?.int == 31)
            #expect(ready.json?["networks"]?.int == 3)
            #expect(ready.headers[.requestID]?.isEmpty == false)
        }
    }

    @Test func regionRefreshAnswersTheProductDocumentShape() async throws {
        try await withServer { client, built in
            let body = #"{"lat": 37.7749, "lon": -122.4194, "accuracy": 65.0, "radius_km": 50, "user_networks": ["costco"], "max_regions": 5}"#
            let reply = try await client.send(.post, "/v1/region-refresh", body: body)
            #expect(reply.status == 200)
            // The hand-written encoder must produce what the Codable contract type reads back, field for field.
            let decoded = try JSONDecoder().decode(RegionRefreshResponse.self, from: Data(reply.body))
            let expected = try built.engine.refresh(RegionRefreshRequest.decode(json: Data(body.utf8)), now: Date())
            #expect(decoded.regions == expected.regions)
            #expect(decoded.refreshAfterMeters == expected.refreshAfterMeters)
            #expect(decoded.cacheTtlSeconds == expected.cacheTtlSeconds)
            #expect(decoded.regions.count == 5)
            #expect(decoded.regions.first?.id == "loc_costco_sf")
            #expect(decoded.regions.first?.priority == 1)
            #expect(decoded.serverTime.hasSuffix("Z"))
            let text = reply.text
            #expect(text.hasPrefix(#"{"regions":[{"id":"loc_costco_sf","network_id":"costco","lat":37.77,"lon":-122.413,"radius_meters":"#))
            #expect(reply.headers[.contentType] == "application/json")
        }
    }

    @Test func explainAndRefreshRegionFieldsAreEncoded() async throws {
        try await withServer { client, built in
            let body = #"{"lat": 37.75, "lon": -122.45, "explain": true, "reserve_refresh_region": true, "local_time": "2025-11-22T18:30:00-08:00"}"#
            let reply = try await client.send(.post, "/v1/region-refresh", body: body)
            #expect(reply.status == 200)
            let decoded = try JSONDecoder().decode(RegionRefreshResponse.self, from: Data(reply.body))
            let expected = try built.engine.refresh(RegionRefreshRequest.decode(json: Data(body.utf8)), now: Date())
            #expect(decoded.regions == expected.regions)
            #expect(decoded.regions.contains { $0.kind == .refresh })
            #expect(decoded.regions.contains { $0.explain != nil })
        }
    }

    @Test func minRadiusComesFromTheRequestOrTheServerSetting() async throws {
        let floor: (inout ServerConfiguration) -> Void = { $0.minRadiusMeters = 250 }
        try await withServer(configure: floor) { client, built in
            func radii(_ body: String) async throws -> [Double] {
                let reply = try await client.send(.post, "/v1/region-refresh", body: body)
                #expect(reply.status == 200)
                return try JSONDecoder().decode(RegionRefreshResponse.self, from: Data(reply.body)).regions.map(\.radiusMeters)
            }
            #expect(built.engine.configuration.minRadiusMeters == 250)
            #expect(try await radii(#"{"lat": 37.75, "lon": -122.45}"#).allSatisfy { $0 >= 250 })
            #expect(try await radii(#"{"lat": 37.75, "lon": -122.45, "min_radius_meters": 600}"#).allSatisfy { $0 >= 600 })
            // The request's own 0 wins over the server's floor: the density tiers' radii (here all under 250 m) come back.
            #expect(try await radii(#"{"lat": 37.75, "lon": -122.45, "min_radius_meters": 0}"#).contains { $0 < 250 })
            let bad = try await client.send(.post, "/v1/region-refresh", body: #"{"lat": 37.75, "lon": -122.45, "min_radius_meters": 5000}"#)
            #expect(bad.status == 400)
            #expect(String(decoding: bad.body, as: UTF8.self).contains("min_radius_meters"))
        }
    }

    @Test func networksListsEveryNetworkWithItsCount() async throws {
        try await withServer { client, _ in
            let reply = try await client.send(.get, "/v1/networks")
            #expect(reply.status == 200)
            let networks = reply.json?["networks"]?.array ?? []
            #expect(networks.compactMap { $0["id"]?.string } == ["bluebottle", "costco", "sfpl"])
            #expect(networks.compactMap { $0["location_count"]?.int } == [15, 1, 15])
            #expect(networks[1]["category"]?.string == "wholesale")
        }
    }

    @Test func openAPIDocumentIsServedFromTheResource() async throws {
        try await withServer { client, _ in
            let reply = try await client.send(.get, "/openapi.yaml")
            #expect(reply.status == 200)
            #expect(reply.text == (try OpenAPIDocument.text()))
            #expect(reply.text.hasPrefix("openapi: 3.1"))
        }
    }

    @Test func metricsCountRequestsByRouteAndStatusAndDescribeTheIndex() async throws {
        try await withServer { client, _ in
            for _ in 0..<3 { _ = try await client.send(.post, "/v1/region-refresh", body: #"{"lat": 37.7, "lon": -122.4}"#) }
            _ = try await client.send(.post, "/v1/region-refresh", body: #"{"lat": 137.7, "lon": -122.4}"#)
            let metrics = try await client.send(.get, "/metrics")
            #expect(metrics.status == 200)
            let text = metrics.text
            #expect(text.contains(#"oncue_http_requests_total{route="/v1/region-refresh",method="POST",status="200"} 3"#))
            #expect(text.contains(#"oncue_http_requests_total{route="/v1/region-refresh",method="POST",status="400"} 1"#))
            #expect(text.contains(#"oncue_http_request_duration_seconds_count{route="/v1/region-refresh",method="POST"} 4"#))
            #expect(text.contains(#"oncue_http_request_duration_seconds_bucket{route="/v1/region-refresh",method="POST",le="+Inf"} 4"#))
            #expect(text.contains("oncue_index_locations 31\n"))
            #expect(text.contains("oncue_index_networks 3\n"))
            #expect(text.contains("oncue_index_build_seconds "))
            #expect(text.contains(#"oncue_index_reloads_total{result="success"} 1"#))
            #expect(text.contains("# TYPE oncue_imports_total counter"))
        }
    }
}
