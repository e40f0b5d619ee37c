import Foundation
import Geo
import LocationStore
import SQLiteStore
import TestSupport
import Testing

/// `oncue networks show` and `networks list --match/--limit`, checked against the store read directly.
@Suite struct NetworksShowCLITests {
    @Test func showOneAndFilterTheList() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-networks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.sqlite").path
        let store = try SQLiteLocationStore.create(path: path)
        for i in 0..<150 { try store.upsertNetwork(Network(id: "chain-\(i)", name: "Chain \(i)")) }
        try store.upsertNetwork(Network(id: "cafe-zoe", name: "Café Zoë", category: "coffee"))
        try store.addAlias("ZOE COFFEE", networkId: "cafe-zoe")
        _ = try store.upsert([Location(networkId: "cafe-zoe", externalId: "1", name: "Zoë", coordinate: try .init(latitude: 60.17, longitude: 24.94))]
        )

        let shown = try await CLIRunner.run(["networks", "show", "cafe-zoe", "--db", path])
        #expect(shown.status == 0 && shown.stdout.hasPrefix("cafe-zoe: Café Zoë"), "\(shown.stdout) \(shown.stderr)")
        #expect(shown.stdout.contains("category   coffee") && shown.stdout.contains("locations  1") && shown.stdout.contains("ZOE COFFEE"))
        let byAlias = try await CLIRunner.run(["networks", "show", "ZOE COFFEE", "--db", path, "--format", "json"])
        #expect(byAlias.status == 0 && byAlias.stdout.contains("\"id\" : \"cafe-zoe\""), "\(byAlias.stdout)")

        let matched = try await CLIRunner.run(["networks", "list", "--db", path, "--match", "zoe"])
        #expect(matched.status == 0 && matched.stdout.split(separator: "\n").count == 2, "accents and case ignored: \(matched.stdout)")
        let capped = try await CLIRunner.run(["networks", "list", "--db", path])
        #expect(capped.stdout.split(separator: "\n").count == 101 && capped.stderr.contains("100 of 151 networks shown"), "\(capped.stderr)")
        let all = try await CLIRunner.run(["networks", "list", "--db", path, "--limit", "0", "--format", "json"])
        let entries = try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [Any]
        let count = try store.networks().count
        #expect(entries?.count == count)
    }
}
