import Foundation
import Geo
import LocationStore
import SQLiteStore
import TestSupport
import Testing

/// `oncue locations`: one store added, changed and deleted on a store file, with the import's checks.
@Suite struct LocationsCLITests {
    @Test func addSetShowAndDeleteOneLocation() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("s.sqlite").path
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SQLiteLocationStore.create(path: path)
        try store.upsertNetwork(Network(id: "costco", name: "Costco"))

        let added = try await CLIRunner.run([
            "locations", "add", "--db", path, "--network", "Costco", "--id", "1234", "--name", "Costco Midtown",
            "--lat", "40.74985", "--lon", "-73.98580",
        ])
        #expect(added.status == 0 && added.stdout.hasPrefix("inserted loc_costco_1234: Costco Midtown"), "\(added.stdout) \(added.stderr)")
        let set = try await CLIRunner.run(["locations", "set", "loc_costco_1234", "--db", path, "--address", "32 W 35th St"])
        #expect(set.status == 0 && set.stdout.hasPrefix("updated"), "\(set.stdout) \(set.stderr)")
        // Read through a connection of its own, opened after the commands wrote.
        let reread = try #require(try SQLiteLocationStore(path: path, readOnly: true).location(id: "loc_costco_1234"))
        #expect(reread.address == "32 W 35th St" && reread.name == "Costco Midtown" && reread.coordinate.latitude == 40.74985)

        let outside = try await CLIRunner.run(["locations", "set", "loc_costco_1234", "--db", path, "--lat", "95"])
        #expect(outside.status != 0 && outside.stderr.contains("out of range"), "\(outside.stderr)")
        let unknown = try await CLIRunner.run(["locations", "add", "--db", path, "--network", "nope", "--lat", "1", "--lon", "1"])
        #expect(unknown.status != 0 && unknown.stderr.contains("no network 'nope'"), "\(unknown.stderr)")

        let shown = try await CLIRunner.run(["locations", "show", "loc_costco_1234", "--db", path, "--json"])
        #expect(shown.status == 0 && shown.stdout.contains("1234") && shown.stdout.contains("40.74985"), "\(shown.stdout)")
        let deleted = try await CLIRunner.run(["locations", "delete", "loc_costco_1234", "--db", path])
        #expect(deleted.status == 0)
        #expect(try SQLiteLocationStore(path: path, readOnly: true).location(id: "loc_costco_1234") == nil)
        let again = try await CLIRunner.run(["locations", "delete", "loc_costco_1234", "--db", path])
        #expect(again.status != 0 && again.stderr.contains("no location"), "\(again.stderr)")
    }
}
