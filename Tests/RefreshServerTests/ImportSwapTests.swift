import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Synchronization
import TestSupport
import Testing

@testable import RefreshServer

@Suite("imports through the admin API")
struct ImportSwapTests {
    /// A CSV of `count` stores of a new network around Manhattan, where the fixture store has none.
    static func manhattanCSV(count: Int) -> String {
        var csv = "store_id,name,address,latitude,longitude\n"
        for i in 0..<count {
            let lat = 40.70 + Double(i % 50) * 0.002
            let lon = -74.02 + Double(i / 50) * 0.002
            csv += "t\(i),Target \(i),\(i) Broadway,\(String(format: "%.6f", lat)),\(String(format: "%.6f", lon))\n"
        }
        return csv
    }

    @Test func importWhileQueryingFailsNoQueryAndServesNewLocationsAfterTheSwap() async throws {
        let configure: (inout ServerConfiguration) -> Void = { $0.rateLimit = nil }

        // Live: the readers hold connections of their own to the port.
        try await withServer(over: .live, configure: configure) { client, built in
            let port = try #require(client.port)
            let stop = StopFlag()
            let readerSawTarget = StopFlag()
            let query = #"{"lat": 40.7300, "lon": -74.0000, "user_networks": ["target"], "max_regions": 20}"#
            // Readers hammer the refresh route on their own connections for the whole import and swap.
            let results = try await withThrowingTaskGroup(of: (ok: Int, failed: Int, sawTarget: Bool).self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        let reader = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(120)))
                        reader.connect()
                        defer { Task { try? await reader.shutdown() } }
                        var ok = 0
                        var failed = 0
                        var sawTarget = false
                        for _ in 0..<100_000 where !stop.isSet {
                            let response = try await reader.postWithHost(
                                "/v1/region-refresh", headers: [.contentType: "application/json"],
                                body: ByteBuffer(string: query))
                            if response.status == .ok { ok += 1 } else { failed += 1 }
                            if String(buffer: response.body ?? ByteBuffer()).contains("loc_target_t") {
                                sawTarget = true
                                readerSawTarget.set()
                            }
                        }
                        return (ok, failed, sawTarget)
                    }
                }
                let before = try await client.send(.post, "/v1/region-refresh", body: query)
                #expect(before.status == 200)
                #expect(!before.text.contains("loc_target_"))

                let imported = try await client.send(
                    .post, "/admin/imports?network=target&category=grocery&file_name=manhattan.csv",
                    headers: .admin.merging([.contentType: "text/csv"]), body: Self.manhattanCSV(count: 2_000),
                    json: false)
                #expect(imported.status == 200, "\(imported.text.prefix(300))")
                #expect(imported.json?["committed"]?.bool == true)
                #expect(imported.json?["totals"]?["inserted"]?.int == 2_000)
                // Read your writes: the 200 comes once this process serves the import, with no wait of the client's own.
                #expect(built.reloader.completedReloads >= 2)
                let after = try await client.send(.post, "/v1/region-refresh", body: query)
                #expect(after.status == 200)
                #expect(after.json?["regions"]?.array?.first?["network_id"]?.string == "target")
                // The readers go on until one of them has been answered from the new index (a loaded machine may run
                // them seconds apart).
                _ = try await eventually(within: .seconds(30)) { readerSawTarget.isSet }
                stop.set()
                var totals: [(ok: Int, failed: Int, sawTarget: Bool)] = []
                for try await result in group { totals.append(result) }
                return totals
            }
            #expect(results.map(\.failed).reduce(0, +) == 0)
            #expect(results.allSatisfy { $0.ok > 0 })
            #expect(results.contains { $0.sawTarget }, "no reader saw the swapped-in index")

            // The import is in the log, with its counts.
            let log = try await client.send(.get, "/admin/imports", headers: .admin)
            let record = try #require(log.json?["imports"]?.array?.first)
            #expect(record["file_name"]?.string == "manhattan.csv")
            #expect(record["counts"]?["inserted"]?.int == 2_000)
            let id = try #require(record["id"]?.int)
            let shown = try await client.send(.get, "/admin/imports/\(id)", route: "/admin/imports/{id}", headers: .admin)
            #expect(shown.status == 200)
            let metrics = try await client.send(.get, "/metrics").text
            #expect(metrics.contains(#"oncue_imports_total{status="committed"} 1"#))
            #expect(metrics.contains("oncue_index_locations 2031\n"))
        }
    }

    @Test("a GeoJSON upload is told from its bytes and served like a CSV")
    func geoJSONUpload() async throws {
        let features = (0..<30).map { i in
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(-74.0 + Double(i) * 0.001),40.73]},"#
                + #""properties":{"ref":"g\#(i)","name":"Target \#(i)","brand":"Target"}}"#
        }
        try await withServer { client, _ in
            let imported = try await client.send(
                .post, "/admin/imports?file_name=targets.geojson", headers: .admin.merging([.contentType: "application/geo+json"]),
                body: #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}", json: false)
            #expect(imported.status == 200, "\(imported.text.prefix(300))")
            #expect(imported.json?["files"]?.array?.first?["format"]?.string == "geojson")
            #expect(imported.json?["totals"]?["inserted"]?.int == 30)
            let refresh = try await client.send(
                .post, "/v1/region-refresh", body: #"{"lat": 40.7300, "lon": -74.0000, "user_networks": ["target"]}"#)
            #expect(refresh.json?["regions"]?.array?.first?["id"]?.string == "loc_target_g0")
        }
    }

    @Test func importRefusals() async throws {
        let configure: (inout ServerConfiguration) -> Void = { $0.maxImportBytes = 4_096 }

        try await withServer(configure: configure) { client, _ in
            let csvHeaders = HTTPFields.admin.merging([.contentType: "text/csv"])
            let large = try await client.send(
                .post, "/admin/imports?network=target", headers: csvHeaders, body: Self.manhattanCSV(count: 500), json: false)
            #expect(large.status == 413)
            #expect(large.json?["error"]?.string == "body_too_large")
            let json = try await client.send(.post, "/admin/imports?network=target", headers: .admin, body: #"{"rows": []}"#)
            #expect(json.status == 415)
            let unknown = try await client.send(
                .post, "/admin/imports?colour=red", headers: csvHeaders, body: Self.manhattanCSV(count: 2), json: false)
            #expect(unknown.status == 400)
            #expect(unknown.json?["field"]?.string == "colour")
            let noAuth = try await client.send(
                .post, "/admin/imports?network=target", headers: [.contentType: "text/csv"],
                body: Self.manhattanCSV(count: 2), json: false)
            #expect(noAuth.status == 401)
            let dry = try await client.send(
                .post, "/admin/imports?network=target&dry_run=true", headers: csvHeaders,
                body: Self.manhattanCSV(count: 3), json: false)
            #expect(dry.status == 200)
            #expect(dry.json?["committed"]?.bool == false)
            #expect(dry.json?["dry_run"]?.bool == true)
        }
    }

    @Test func geocodingParameters() async throws {
        let csvHeaders = HTTPFields.admin.merging([.contentType: "text/csv"])
        let addresses = "id,name,address,city\n1,Shop,1 Main St,Springfield\n"
        try await withServer { client, _ in
            // Asking for geocoding from a server that has no geocoder, without naming one.
            let none = try await client.send(
                .post, "/admin/imports?network=shops&geocode=missing", headers: csvHeaders, body: addresses,
                json: false)
            #expect(none.status == 422 && none.json?["field"]?.string == "geocoder")
            let badMode = try await client.send(
                .post, "/admin/imports?network=shops&geocode=some", headers: csvHeaders, body: addresses,
                json: false)
            #expect(badMode.status == 400 && badMode.json?["field"]?.string == "geocode")
            // A URL in the request is never fetched: the admin API picks among the server's geocoders by name.
            let url = try await client.send(
                .post, "/admin/imports?network=shops&geocoder=http://127.0.0.1:9", headers: csvHeaders, body: addresses,
                json: false)
            #expect(url.status == 400 && url.json?["field"]?.string == "geocoder", "\(url.text)")
        }
        // A server with a geocoder that refuses connections, by name: the import goes through and says why the row
        // was not placed.
        let configure: (inout ServerConfiguration) -> Void = {
            $0.geocoders = [
                NamedGeocoder(name: "nominatim", url: URL(string: "http://127.0.0.1:8")!),
                NamedGeocoder(name: "refused", url: URL(string: "http://127.0.0.1:9")!),
            ]
        }
        try await withServer(configure: configure) { client, _ in
            let dead = try await client.send(
                .post, "/admin/imports?network=shops&geocoder=refused", headers: csvHeaders,
                body: addresses, json: false)
            #expect(dead.status == 200)
            #expect(dead.json?["files"]?.array?.first?["rejected_by_reason"]?["geocode_failed"]?.int == 1)
            #expect(dead.json?["geocoding"]?["failed"]?.int == 1)
            let required = try await client.send(
                .post, "/admin/imports?network=shops&geocoder=refused&require_geocode=true",
                headers: csvHeaders, body: addresses, json: false)
            #expect(required.status == 422 && required.json?["error"]?.string == "import_failed")
            let unknown = try await client.send(
                .post, "/admin/imports?network=shops&geocoder=photon", headers: csvHeaders, body: addresses, json: false)
            #expect(unknown.status == 422 && unknown.text.contains("nominatim, refused"), "\(unknown.text)")
            // A file without coordinate columns or an address to geocode is unprocessable, not a bad request.
            let noColumns = try await client.send(.post, "/admin/imports?network=shops", headers: csvHeaders, body: "0\n1\n", json: false)
            #expect(noColumns.status == 422 && noColumns.json?["error"]?.string == "import_failed")
        }
    }
}

/// Tells reader tasks to finish.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}
