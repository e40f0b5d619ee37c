import Foundation
import LocationStore
import SQLiteStore
import TestSupport
import Testing

/// One exit-code rule for every command, read from the binary's own list of them (`--experimental-dump-help`), so a
/// command added later is held to it too: bad usage exits 2 with the usage line, a thing that is not there (a store,
/// a location, a network, a key, an import) exits 1 with `error:`.
@Suite("one exit-code rule over every command")
struct ExitCodeRuleTests {
    /// A leaf command and the arguments it cannot run without.
    struct Leaf {
        var path: [String]
        var required: [(name: String?, kind: String)]
        var takesStore: Bool
    }

    static func leaves() async throws -> [Leaf] {
        let dump = try await CLIRunner.run(["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var out: [Leaf] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            let subs = (command["subcommands"] as? [[String: Any]] ?? []).filter { $0["commandName"] as? String != "help" }
            guard subs.isEmpty else {
                for s in subs { walk(s, path + [s["commandName"] as? String ?? ""]) }
                return
            }
            let arguments = command["arguments"] as? [[String: Any]] ?? []
            let required = arguments.filter { ($0["isOptional"] as? Bool) == false && ($0["kind"] as? String) != "flag" }.map {
                (name: (($0["names"] as? [[String: Any]])?.first?["name"] as? String), kind: $0["kind"] as? String ?? "")
            }
            let takesStore = arguments.contains { (($0["names"] as? [[String: Any]]) ?? []).contains { $0["name"] as? String == "db" } }
            out.append(Leaf(path: path, required: required, takesStore: takesStore))
        }
        walk(try #require(root["command"] as? [String: Any]), [])
        return out
    }

    /// Values that get a command past its own checks to the store: a positional the command reads as a number or a
    /// file, or an option with a closed set of values.
    static func placeholders(_ leaf: Leaf, files: [String: String]) -> [String] {
        var args: [String] = []
        for argument in leaf.required {
            switch (leaf.path.joined(separator: " "), argument.name) {
            case ("imports show", nil): args.append("1")
            case ("import", nil): args.append(files["csv"]!)
            case ("replay", nil): args.append(files["gpx"]!)
            case ("replay", "wallet"): args += ["--wallet", files["wallet"]!]
            case ("keys create", "role"): args += ["--role", "read"]
            case (_, let name?): args += ["--\(name)", "x"]
            case (_, nil): args.append("x\(args.count)")
            }
        }
        if ["nearest", "refresh"].contains(leaf.path[0]) { args += ["40.7", "-74.0"] }
        return args
    }

    @Test func badUsageExitsTwoAndAMissingStoreExitsOne() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-exit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = [
            "csv": dir.appendingPathComponent("a.csv").path, "gpx": dir.appendingPathComponent("t.gpx").path,
            "wallet": dir.appendingPathComponent("w.json").path,
        ]
        try Data("id,name,lat,lon\n1,A,40.7,-74.0\n".utf8).write(to: URL(fileURLWithPath: files["csv"]!))
        try Data(#"<gpx><trk><trkseg><trkpt lat="40.7" lon="-74"><time>2025-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>"#.utf8)
            .write(to: URL(fileURLWithPath: files["gpx"]!))
        try Data(#"{"cards": [{"network_id": "costco", "name": "Costco"}]}"#.utf8).write(to: URL(fileURLWithPath: files["wallet"]!))
        let leaves = try await Self.leaves()
        #expect(leaves.count >= 25, "the dump lists every command")
        let missing = dir.appendingPathComponent("no-such-store.sqlite").path
        for leaf in leaves {
            let args = Self.placeholders(leaf, files: files)
            let usage = try await CLIRunner.run(leaf.path + args + ["--no-such-option"])
            #expect(usage.status == 2 && usage.stderr.contains("--no-such-option"), "\(leaf.path): \(usage.status) \(usage.stderr)")
            guard leaf.takesStore, leaf.path != ["db", "init"] else { continue }
            let absent = try await CLIRunner.run(leaf.path + args + ["--db", missing], environment: ["ONCUE_ADMIN_TOKEN": ""])
            #expect(
                absent.status == 1 && absent.stderr.hasPrefix("error: ") && absent.stderr.contains("no store at"),
                "\(leaf.path): \(absent.status) \(absent.stderr)")
        }
    }

    @Test func aThingThatIsNotThereExitsOne() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-exit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.sqlite").path
        let store = try SQLiteLocationStore.create(path: path)
        try store.upsertNetwork(Network(id: "costco", name: "Costco"))
        for args in [
            ["locations", "show", "loc_costco_none"], ["locations", "set", "loc_costco_none", "--name", "N"],
            ["locations", "delete", "loc_costco_none"], ["networks", "show", "costo"], ["networks", "delete", "nope"],
            ["networks", "merge", "nope", "costco"], ["imports", "show", "99"], ["keys", "revoke", "key_none"],
            ["export", "--network", "nope"],
        ] {
            let result = try await CLIRunner.run(args + ["--db", path])
            #expect(result.status == 1 && result.stderr.hasPrefix("error: "), "\(args): \(result.status) \(result.stderr)")
            #expect(!result.stderr.contains("USAGE"), "\(args): a missing thing is no usage error")
        }
        let typo = try await CLIRunner.run(["networks", "show", "costo", "--db", path])
        #expect(typo.stderr.contains("did you mean 'costco'?"), "\(typo.stderr)")
    }
}
