import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import RefreshServer

@Suite("the web console, the locations listing and background imports")
struct ConsoleTests {
    static var consoleDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/RefreshServer/Console")
    }

    @Test("every console file and the OpenAPI document are embedded byte for byte (else run scripts/embed_resources.py)")
    func embeddedFilesAreCurrent() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.consoleDirectory.path).filter { !$0.hasPrefix(".") }
        #expect(!names.isEmpty)
        for name in names {
            let onDisk = try Data(contentsOf: Self.consoleDirectory.appendingPathComponent(name))
            let embedded = try #require(EmbeddedFile.named("console/\(name)"), "console/\(name) is not embedded")
            #expect(Array(embedded.bytes.readableBytesView) == [UInt8](onDisk), "console/\(name) changed since it was embedded")
        }
        #expect(EmbeddedFile.all.keys.filter { $0.hasPrefix("console/") }.count == names.count, "an embedded file has no source")
        let openAPI = try Data(contentsOf: Self.consoleDirectory.deletingLastPathComponent().appendingPathComponent("openapi.yaml"))
        let embeddedAPI = try #require(EmbeddedFile.named("openapi.yaml"))
        #expect(Array(embeddedAPI.bytes.readableBytesView) == [UInt8](openAPI))
    }

    @Test("the console's page and scripts name only files it has, and nothing off its own origin")
    func selfContained() throws {
        let files = EmbeddedFile.all.filter { $0.key.hasPrefix("console/") }
        for (path, file) in files where file.contentType.hasPrefix("text/") {
            // The SVG namespace is a name, not a request; Leaflet's home page is in its licence comment and in the
            // attribution prefix the console turns off (the browser test sees every request the page makes).
            var text = String(buffer: file.bytes).replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "")
            if path.hasPrefix("console/leaflet") {
                for home in ["http://leafletjs.com", "https://leafletjs.com", "https://github.com/Leaflet/Leaflet"] {
                    text = text.replacingOccurrences(of: home, with: "")
                }
            }
            #expect(!text.contains("http://") && !text.contains("https://") && !text.contains("//cdn"), "\(path) names another origin")
            // src="x", href="x" and ES module imports from './x.js'.
            let pattern = #/(?:src|href)="([^"#:]+)"|from\s+'\./([^']+)'/#
            for match in text.matches(of: pattern) {
                guard let name = match.output.1.map(String.init) ?? match.output.2.map(String.init), !name.isEmpty else { continue }
                #expect(files["console/\(name)"] != nil, "\(path) refers to \(name), which the console does not have")
            }
        }
    }

    @Test("/console redirects to /console/, files come with their type, ETag and a CSP; 304 on a match; 404 otherwise")
    func serving() async throws {
        try await withServer { client, _ in
            let bare = try await client.send(.get, "/console", route: "/console/")
            #expect(bare.status == 301 && bare.headers[.location] == "/console/")
            let page = try await client.send(.get, "/console/")
            #expect(page.status == 200 && page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.text.contains("<title>OnCue console</title>"))
            #expect(page.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
            let script = try await client.send(.get, "/console/app.js", route: "/console/{file}")
            #expect(script.status == 200 && script.headers[.contentType] == "text/javascript; charset=utf-8")
            let etag = try #require(script.headers[.eTag])
            let again = try await client.send(.get, "/console/app.js", route: "/console/{file}", headers: [.ifNoneMatch: etag])
            #expect(again.status == 304 && again.body.isEmpty)
            let missing = try await client.send(.get, "/console/nope.js", route: "/console/{file}")
            #expect(missing.status == 404 && missing.json?["error"]?.string == "not_found")
            let traversal = try await client.send(.get, "/console/..%2Fopenapi.yaml", route: "/console/{file}")
            #expect(traversal.status == 404)
        }
    }

    @Test("config.json names the tile layer of --console-tiles, and the CSP lets its origin's images in; none by default")
    func tiles() async throws {
        try await withServer { client, _ in
            let config = try await client.send(.get, "/console/config.json", route: "/console/{file}")
            #expect(config.status == 200 && config.json?["tiles"] != nil && config.json?["tiles"]?.string == nil)
            #expect(config.text == #"{"tiles":null}"#)
            #expect(config.headers[.contentSecurityPolicy]?.contains("img-src 'self' data:;") == true)
        }
        let withTiles: (inout ServerConfiguration) -> Void = {
            $0.consoleTilesTemplate = "https://{s}.tiles.example.org:8443/osm/{z}/{x}/{y}.png?key=1"
        }
        try await withServer(configure: withTiles) { client, _ in
            let config = try await client.send(.get, "/console/config.json", route: "/console/{file}")
            #expect(config.json?["tiles"]?["url"]?.string == "https://{s}.tiles.example.org:8443/osm/{z}/{x}/{y}.png?key=1")
            #expect(config.json?["tiles"]?["attribution"]?.string == "© OpenStreetMap contributors")
            let page = try await client.send(.get, "/console/")
            #expect(page.headers[.contentSecurityPolicy]?.contains("img-src 'self' data: https://*.tiles.example.org:8443;") == true)
        }
        for bad in [
            "tiles.example.org/{z}/{x}/{y}.png", "https://tiles.example.org/{z}/{x}.png", "ftp://h/{z}/{x}/{y}", "https:///{z}/{x}/{y}",
            "https://u:p@h/{z}/{x}/{y}", "https://h/{z}/{x}/{y}/{q}", "https://a;b.example/{z}/{x}/{y}", "https://a,b/{z}/{x}/{y}",
            "https://tile-{s}.example.org/{z}/{x}/{y}", "https://[::1]:8080/{z}/{x}/{y}", "https://h:80a/{z}/{x}/{y}",
        ] {
            #expect(ConsoleTiles(template: bad) == nil, "\(bad)")
        }
        #expect(ConsoleTiles(template: "http://127.0.0.1:8090/{z}/{x}/{y}.png")?.origin == "http://127.0.0.1:8090")
    }

    @Test("GET /v1/locations lists the box's locations with their radii, and refuses a bad box")
    func locations() async throws {
        try await withServer { client, _ in
            let all = try await client.send(.get, "/v1/locations?bbox=-122.6,37.6,-122.3,37.9")
            #expect(all.status == 200)
            let listed = try #require(all.json?["locations"]?.array)
            #expect(listed.count == 31 && all.json?["truncated"]?.bool == false)
            #expect(listed.allSatisfy { ($0["radius_meters"]?.double ?? 0) > 0 && $0["radius_rule"]?.string != nil })
            let few = try await client.send(.get, "/v1/locations?bbox=-122.6,37.6,-122.3,37.9&limit=5")
            #expect(few.json?["locations"]?.array?.count == 5 && few.json?["truncated"]?.bool == true)
            let empty = try await client.send(.get, "/v1/locations?bbox=10,10,11,11")
            #expect(empty.json?["locations"]?.array?.isEmpty == true)
            // A map view's box is taken as it comes: past the antimeridian, past a pole, latitudes in either order.
            let wrapped = try await client.send(.get, "/v1/locations?bbox=-482.6,37.6,-482.3,37.9")
            #expect(wrapped.json?["locations"]?.array?.count == 31)
            let swapped = try await client.send(.get, "/v1/locations?bbox=-122.6,137.9,-122.3,-37.6")
            #expect(swapped.json?["locations"]?.array?.count == 31)
            let world = try await client.send(.get, "/v1/locations?bbox=-1000,-95,1000,95")
            #expect(world.json?["locations"]?.array?.count == 31)
            for bad in [
                "bbox=1,2,3", "bbox=a,b,c,d", "bbox=1e3,0,0,1", "bbox=0x1p4,0,1,1", "bbox=inf,0,1,1", "bbox=1.,0,1,1", "bbox=%201,0,1,1",
                "limit=5", "bbox=0,0,1,1&limit=0", "bbox=0,0,1,1&x=1",
            ] {
                let reply = try await client.send(.get, "/v1/locations?\(bad)", route: "/v1/locations")
                #expect(reply.status == 400, "\(bad)")
            }
        }
    }

    @Test("Prefer: respond-async answers 202 with a job that reports progress and ends with the report")
    func backgroundImport() async throws {
        try await withServer { client, built in
            let headers = HTTPFields.admin.merging([.contentType: "text/csv", HTTPField.Name("Prefer")!: "respond-async"])
            let started = try await client.send(
                .post, "/admin/imports?network=target&file_name=manhattan.csv", headers: headers,
                body: ImportSwapTests.manhattanCSV(count: 300), json: false)
            #expect(started.status == 202)
            let job = try #require(started.json?["job"]?.string)
            #expect(started.headers[.location] == "/admin/jobs/\(job)")
            var status = "running"
            var last: Reply?
            for _ in 0..<3000 where status == "running" {
                let reply = try await client.send(.get, "/admin/jobs/\(job)", route: "/admin/jobs/{id}", headers: .admin)
                status = reply.json?["status"]?.string ?? "?"
                last = reply
                if status == "running" { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(status == "committed")
            #expect(last?.json?["result"]?["totals"]?["inserted"]?.int == 300)
            #expect(last?.json?["progress"]?["rows"]?.int == 300)
            try await waitForReload(built, count: 2)
            let unknown = try await client.send(.get, "/admin/jobs/0123", route: "/admin/jobs/{id}", headers: .admin)
            #expect(unknown.status == 404)
            let anonymous = try await client.send(.get, "/admin/jobs/\(job)", route: "/admin/jobs/{id}")
            #expect(anonymous.status == 401)
        }
    }
}
