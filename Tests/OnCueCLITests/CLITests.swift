import CSQLite
import Foundation
import Geo
import LocationStore
import SQLiteStore
import TestSupport
import Testing

/// The command-line tool end to end: help with examples, exit codes, one-line errors, results.
@Suite struct CLITests {
    static let commands: [[String]] = [
        [], ["db"], ["db", "init"], ["db", "stats"], ["db", "check"], ["nearest"], ["refresh"], ["import"], ["imports", "list"], ["imports", "show"],
        ["networks", "list"], ["networks", "set"],
        ["networks", "alias"], ["networks", "delete"], ["networks", "merge"], ["serve"], ["replay"],
    ]

    @Test(arguments: commands)
    func helpHasAnExample(command: [String]) async throws {
        let r = try await CLIRunner.run(command + ["--help"])
        #expect(r.status == 0, "\(command) --help exited \(r.status): \(r.stderr)")
        if !command.isEmpty && command != ["db"] {
            #expect(r.stdout.contains("Example") || r.stdout.contains("example"), "\(command) --help has no example")
        }
    }

    func temporaryStore() throws -> (dir: URL, path: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return (dir, dir.appendingPathComponent("s.sqlite").path)
    }

    @Test func exitCodesAndOneLineErrors() async throws {
        let (dir, path) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try await CLIRunner.run(["db", "init", "--db", path]).status == 0)
        let cases: [([String], Int32, String)] = [
            (["nearest", "--db", path, "91", "0"], 2, "latitude 91.0"),
            (["nearest", "--db", path, "abc", "0"], 2, "not a number"),
            (["nearest", "--db", path, "10"], 2, "expected LAT LON"),
            (["nearest", "--db", path, "10", "10", "--limit", "0"], 2, "--limit"),
            (["db", "stats", "--bogus", path], 2, "bogus"),
            (["nearest", "--db", dir.appendingPathComponent("missing.sqlite").path, "10", "10"], 1, "no store at"),
            (["db", "init", "--db", path], 1, "already exists"),
            (["refresh", "--db", path, "10", "10", "--max-regions", "101"], 2, "max_regions"),
        ]
        for (args, status, message) in cases {
            let r = try await CLIRunner.run(args)
            #expect(r.status == status, "\(args) → \(r.status) \(r.stderr)")
            #expect(r.stderr.contains(message), "\(args) stderr: \(r.stderr)")
            #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("Backtrace"))
        }
        let notDB = dir.appendingPathComponent("notes.txt").path
        try Data("just text".utf8).write(to: URL(fileURLWithPath: notDB))
        let r = try await CLIRunner.run(["db", "stats", "--db", notDB])
        #expect(r.status == 1 && r.stderr == "error: \(notDB) is not a SQLite database\n")
        #expect(try String(contentsOfFile: notDB, encoding: .utf8) == "just text")
        let missing = try await CLIRunner.run(["db", "stats", "--db", dir.appendingPathComponent("nope.sqlite").path])
        #expect(missing.status == 1 && missing.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("nope.sqlite").path))
    }

    @Test func networksSetDeleteAndMerge() async throws {
        let (dir, path) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteLocationStore.create(path: path)
        try store.upsertNetwork(Network(id: "cmg", name: "Chipotle Mexican Grill", category: "fast-food"))
        try store.upsertNetwork(Network(id: "chipotle", name: "Chipotle"))
        try store.upsertNetwork(Network(id: "sonic", name: "Sonic"))
        let here = Coordinate(uncheckedLatitude: 40.7, longitude: -74.0)
        _ = try store.upsert([
            Location(networkId: "cmg", externalId: "1", name: "", coordinate: here),
            Location(networkId: "chipotle", externalId: "1", name: "", coordinate: Sphere.destination(from: here, meters: 3_000, bearing: 0)),
            Location(networkId: "sonic", externalId: "1", name: "", coordinate: Sphere.destination(from: here, meters: 6_000, bearing: 0)),
        ])
        // set changes only what is given: the category stays.
        let set = try await CLIRunner.run(["networks", "set", "cmg", "--db", path, "--default-radius-m", "250"])
        #expect(set.status == 0 && set.stdout.contains("category fast-food") && set.stdout.contains("radius 250 m"), "\(set.stdout)")
        let badRadius = try await CLIRunner.run(["networks", "set", "cmg", "--db", path, "--default-radius-m", "-5"])
        #expect(badRadius.status == 2 && badRadius.stderr.contains("--default-radius-m"), "\(badRadius.stderr)")
        let merged = try await CLIRunner.run(["networks", "merge", "cmg", "chipotle", "--db", path])
        #expect(merged.status == 0 && merged.stdout.contains("1 moved"), "\(merged.stdout) \(merged.stderr)")
        // Read through a connection of its own, opened after the command wrote.
        let merged2 = try SQLiteLocationStore(path: path, readOnly: true)
        #expect(try merged2.resolveNetwork("Chipotle Mexican Grill") == "chipotle")
        #expect(try merged2.locations(networkId: "chipotle").map(\.id) == ["loc_chipotle_1", "loc_chipotle_cmg:1"])
        let deleted = try await CLIRunner.run(["networks", "delete", "sonic", "--db", path])
        #expect(deleted.status == 0 && deleted.stdout.contains("1 locations"), "\(deleted.stdout)")
        #expect(try SQLiteLocationStore(path: path, readOnly: true).network(id: "sonic") == nil)
        let again = try await CLIRunner.run(["networks", "delete", "sonic", "--db", path])
        #expect(again.status == 1 && again.stderr.contains("unknown network 'sonic'"), "\(again.stderr)")
    }

    @Test func nearestPrintsTheStoresAnswer() async throws {
        let (dir, path) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteLocationStore.create(path: path)
        try store.upsertNetwork(Network(id: "lib", name: "Libraries"))
        try store.upsertNetwork(Network(id: "cafe", name: "Cafés"))
        let center = Coordinate(uncheckedLatitude: 30.2672, longitude: -97.7431)
        var locations: [Location] = []
        for k in 0..<40 {
            let c = Sphere.destination(from: center, meters: Double(k) * 700 + 50, bearing: Double(k) * 37)
            locations.append(Location(networkId: k % 3 == 0 ? "cafe" : "lib", externalId: "\(k)", name: "Branch \(k) – é", coordinate: c))
        }
        _ = try store.upsert(locations)
        let r = try await CLIRunner.run([
            "nearest", "--db", path, "30.2672", "-97.7431", "--limit", "7", "--radius-km", "10", "--network", "lib", "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        struct Row: Decodable {
            let id: String
            let distance_m: Double
            let name: String
        }
        let rows = try JSONDecoder().decode([Row].self, from: Data(r.stdout.utf8))
        let expected = try store.nearby(NearbyQuery(center: center, radiusMeters: 10_000, limit: 7, networks: ["lib"]))
        #expect(rows.map(\.id) == expected.map(\.location.id))
        #expect(rows.first?.name.hasSuffix("– é") == true)
        let table = try await CLIRunner.run(["nearest", "--db", path, "30.2672", "-97.7431", "--limit", "3"])
        #expect(table.status == 0 && table.stdout.split(separator: "\n").count == 4)
        let stats = try await CLIRunner.run(["db", "stats", "--db", path, "--json"])
        struct Stats: Decodable {
            let locations: Int
            let networks: [String: Int]
        }
        let s = try JSONDecoder().decode(Stats.self, from: Data(stats.stdout.utf8))
        #expect(s.locations == 40 && s.networks["cafe"] == 14 && s.networks["lib"] == 26)
        let check = try await CLIRunner.run(["db", "check", "--db", path])
        #expect(check.status == 0)
    }

    @Test func refreshPrintsTheAPIResponse() async throws {
        let (dir, path) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteLocationStore.create(path: path)
        try store.upsertNetwork(Network(id: "costco", name: "Costco", category: "wholesale"))
        _ = try store.upsert([
            Location(
                networkId: "costco", externalId: "sf", name: "Costco Wholesale - San Francisco",
                address: "450 10th St, San Francisco, CA", coordinate: Coordinate(uncheckedLatitude: 37.7706, longitude: -122.4128))
        ])
        let r = try await CLIRunner.run([
            "refresh", "--db", path, "37.7749", "-122.4194", "--network", "costco", "--reserve-refresh-region", "--format", "json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect(
            Set(object.keys) == ["regions", "refresh_after_meters", "cache_ttl_seconds", "server_time", "coverage_guaranteed", "resolved_networks"])
        #expect(object["resolved_networks"] as? [String: String] == ["costco": "costco"])
        let regions = object["regions"] as! [[String: Any]]
        #expect(regions.first?["id"] as? String == "loc_costco_sf" && regions.first?["priority"] as? Int == 1)
        #expect(regions.last?["kind"] as? String == "refresh")
        #expect(object["cache_ttl_seconds"] as? Int == 21_600)
    }

    /// Opening hours from a CSV's opening_hours column, through the store and the index, into the ranking: on a
    /// Saturday evening the office-hours store 300 m away ranks after the all-night one 2 km away, and says why.
    @Test func refreshRanksAStoreClosedAtTheLocalTimeAfterAnOpenOne() async throws {
        let (dir, path) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("stores.csv")
        try Data(
            """
            id,name,lat,lon,opening_hours
            near,Office hours,60.1727,24.9410,Mo-Fr 09:00-17:00
            far,All night,60.1880,24.9410,Mo-Su 00:00-24:00

            """.utf8
        ).write(to: csv)
        #expect(try await CLIRunner.run(["db", "init", "--db", path]).status == 0)
        let imported = try await CLIRunner.run(["import", csv.path, "--db", path, "--network", "shop"])
        #expect(imported.status == 0, "\(imported.stderr)")
        func order(_ extra: [String]) async throws -> (ids: [String], explain: [[String: Any]]) {
            let r = try await CLIRunner.run(
                ["refresh", "--db", path, "60.1700", "24.9410", "--network", "shop", "--explain", "--format", "json"] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            let regions = (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any])["regions"] as! [[String: Any]]
            return (regions.map { $0["id"] as! String }, regions.map { $0["explain"] as! [String: Any] })
        }
        let saturday = try await order(["--local-time", "2026-11-28T19:00:00+02:00"])
        #expect(saturday.ids == ["loc_shop_far", "loc_shop_near"])
        #expect(saturday.explain[1]["closed_soon"] as? Bool == true && saturday.explain[1]["opening_hours"] as? String == "Mo-Fr 09:00-17:00")
        #expect(saturday.explain[0]["closed_soon"] as? Bool == false)
        #expect(try await order(["--local-time", "2026-11-26T10:00:00+02:00"]).ids == ["loc_shop_near", "loc_shop_far"])
        let ignoringHours = try await order(["--local-time", "2026-11-28T19:00:00+02:00", "--closed-lookahead-minutes", "0"])
        #expect(ignoringHours.ids == ["loc_shop_near", "loc_shop_far"])
        #expect(try await CLIRunner.run(["refresh", "--db", path, "60.17", "24.94", "--closed-lookahead-minutes", "2000"]).status == 2)
    }
}
