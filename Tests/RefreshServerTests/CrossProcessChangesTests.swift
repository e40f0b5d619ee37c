import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A server on a SQLite file follows what other processes commit to it — the admin's everyday flow on the embedded
/// default: `oncue import`, `oncue locations add|set|delete` and `oncue networks merge` run beside `oncue serve` are
/// served within a poll (2 s), a key revoked from the command line is refused, a writer killed mid-transaction
/// changes nothing served, and the server's own writes are not applied twice.
@Suite("a server on a SQLite file follows other processes' writes", .serialized)
struct CrossProcessChangesTests {
    static func oncue(_ arguments: [String]) async throws -> ChildProcessResult {
        let binary = try #require(OncueExecutable.url, "build the oncue executable first (swift build)")
        return try await ChildProcess.run(binary, arguments)
    }

    /// The location ids region-refresh answers near the Costco SF test store for `networks`.
    static func served(_ port: Int, networks: [String]) -> Set<String> {
        guard let connection = try? RawConnection(port: port) else { return [] }
        let body =
            #"{"lat": 37.7700, "lon": -122.4130, "user_networks": [\#(networks.map { "\"\($0)\"" }.joined(separator: ","))], "max_regions": 20}"#
        try? connection.write(
            "POST /v1/region-refresh HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
                + body)
        let text = connection.readResponse()
        guard let json = text.range(of: "\r\n\r\n").map({ String(text[$0.upperBound...]) }),
            let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let regions = object["regions"] as? [[String: Any]]
        else { return [] }
        return Set(regions.compactMap { $0["id"] as? String })
    }

    static func storeVersion(_ port: Int) -> Int? {
        guard let text = RawConnection.get(port: port, "/readyz"), let start = text.range(of: "\"store_version\":") else { return nil }
        return Int(text[start.upperBound...].prefix { $0.isNumber })
    }

    @Test("an import, a location's add, move and delete, a merge and a key revocation from the command line are served")
    func commandLineWritesAreServed() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let server = try await ServeProcess(store: store.path, environment: ["ONCUE_ADMIN_TOKEN": adminToken])
        let port = server.port
        let before = try #require(Self.storeVersion(port), "/readyz names the file's change version")

        let csv = store.directory.appendingPathComponent("more.csv").path
        try "id,name,lat,lon\nc2,Costco Two,37.7712,-122.4141\n".write(toFile: csv, atomically: true, encoding: .utf8)
        #expect(try await Self.oncue(["import", csv, "--db", store.path, "--network", "costco"]).status == 0)
        #expect(try await eventually(within: .seconds(20)) { Self.served(port, networks: ["costco"]).contains("loc_costco_c2") })
        #expect((Self.storeVersion(port) ?? 0) > before)

        let add = try await Self.oncue([
            "locations", "add", "--db", store.path, "--network", "costco", "--id", "c3", "--name", "Costco Three", "--lat", "37.7705", "--lon",
            "-122.4120",
        ])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(try await eventually(within: .seconds(20)) { Self.served(port, networks: ["costco"]).contains("loc_costco_c3") })
        // Moved 200 km away: no longer among the regions near the test point.
        #expect(try await Self.oncue(["locations", "set", "loc_costco_c3", "--db", store.path, "--lat", "36.0", "--lon", "-121.0"]).status == 0)
        #expect(try await eventually(within: .seconds(20)) { !Self.served(port, networks: ["costco"]).contains("loc_costco_c3") })
        #expect(try await Self.oncue(["locations", "delete", "loc_costco_c2", "--db", store.path]).status == 0)
        #expect(try await eventually(within: .seconds(20)) { !Self.served(port, networks: ["costco"]).contains("loc_costco_c2") })

        let blueBottle = Self.served(port, networks: ["bluebottle"])
        #expect(!blueBottle.isEmpty)
        #expect(try await Self.oncue(["networks", "merge", "bluebottle", "sfpl", "--db", store.path]).status == 0)
        // Merged away: the network's name reaches sfpl now, and no location keeps the old network's id.
        #expect(
            try await eventually(within: .seconds(20)) { !Self.served(port, networks: ["bluebottle"]).contains { $0.hasPrefix("loc_bluebottle_") } })

        let made = try await Self.oncue(["keys", "create", "--db", store.path, "--name", "cli reader", "--role", "read", "--json"])
        let key = try #require(try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any])
        let token = try #require(key["token"] as? String)
        func whoami() -> String {
            guard let c = try? RawConnection(port: port) else { return "" }
            try? c.write("GET /admin/whoami HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n\r\n")
            return c.readResponse()
        }
        // An unknown token reads the keys again at most once a second: a read that began just before the key was made
        // refuses it until the next.
        #expect(try await eventually(within: .seconds(10)) { whoami().hasPrefix("HTTP/1.1 200") })
        #expect(try await Self.oncue(["keys", "revoke", try #require(key["id"] as? String), "--db", store.path]).status == 0)
        #expect(try await eventually(within: .seconds(30)) { whoami().hasPrefix("HTTP/1.1 403") })
    }

    @Test("a writer killed mid-transaction changes nothing served; the server's own write is applied once")
    func killedWriterAndOwnWrites() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let server = try await ServeProcess(store: store.path, environment: ["ONCUE_ADMIN_TOKEN": adminToken])
        let port = server.port
        // Rows enough that the import is still writing when it is killed.
        let csv = store.directory.appendingPathComponent("big.csv").path
        var rows = "id,name,lat,lon\n"
        for i in 0..<200_000 { rows += "k\(i),Killed \(i),\(37.70 + Double(i % 1_000) * 0.0001),\(-122.45 + Double(i / 1_000) * 0.0001)\n" }
        try rows.write(toFile: csv, atomically: true, encoding: .utf8)
        let version = Self.storeVersion(port)
        let binary = try #require(OncueExecutable.url)
        let importer = Process()
        importer.executableURL = binary
        importer.arguments = ["import", csv, "--db", store.path, "--network", "costco", "--progress", "never"]
        importer.standardOutput = FileHandle.nullDevice
        importer.standardError = FileHandle.nullDevice
        try importer.run()
        try await Task.sleep(for: .milliseconds(1_500))
        kill(importer.processIdentifier, SIGKILL)
        importer.waitUntilExit()
        // Two polls later: the same version, and no killed row served.
        try await Task.sleep(for: .seconds(5))
        #expect(Self.storeVersion(port) == version)
        #expect(!Self.served(port, networks: ["costco"]).contains { $0.hasPrefix("loc_costco_k") })

        // The server's own write: served when answered, and the poll finds nothing more to apply.
        let reloads = server.metric("oncue_index_reloads_total", where: "result=\"success\"")
        let body = #"{"network": "costco", "id": "own", "name": "Own Write", "latitude": 37.7690, "longitude": -122.4160}"#
        let c = try RawConnection(port: port)
        try c.write(
            "POST /admin/locations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(adminToken)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
                + body)
        #expect(c.readResponse().hasPrefix("HTTP/1.1 201"))
        #expect(Self.served(port, networks: ["costco"]).contains("loc_costco_own"))
        try await Task.sleep(for: .seconds(5))
        #expect(server.metric("oncue_index_reloads_total", where: "result=\"success\"") == reloads + 1)
    }
}
