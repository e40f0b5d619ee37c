import CSQLite
import Foundation
import Geo
import LocationStore
import SQLiteStore
import TestSupport
import Testing

/// One vocabulary across commands: `--db` from one option group (the `db` commands' old positional still works, with
/// a deprecation line), `--format table|json` with `--json` as its alias, `--network` repeatable or a comma list, and
/// closed sets of values refused by the parser with the values listed.
@Suite struct VocabularyTests {
    /// A store with three networks of one location each around Manhattan.
    static func store() throws -> (dir: URL, path: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-vocabulary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("s.sqlite").path
        let store = try SQLiteLocationStore.create(path: path)
        for (i, id) in ["acme", "bolt", "crux"].enumerated() {
            try store.upsertNetwork(Network(id: id, name: id.capitalized))
            _ = try store.upsert([
                Location(
                    networkId: id, externalId: "1", name: "\(id) one",
                    coordinate: Coordinate(uncheckedLatitude: 40.75 + Double(i) * 0.001, longitude: -73.98))
            ])
        }
        return (dir, path)
    }

    @Test("--version prints the release and exits 0")
    func versionIsPrinted() async throws {
        let result = try await CLIRunner.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3, "\(result.stdout)")
    }

    @Test("db init|stats|check take --db; the old positional still works with a deprecation line; both at once is refused")
    func dbCommandsTakeTheStoreOneWay() async throws {
        let (dir, _) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fresh = dir.appendingPathComponent("fresh.sqlite").path
        let old = dir.appendingPathComponent("old.sqlite").path
        let byOption = try await CLIRunner.run(["db", "init", "--db", fresh])
        #expect(byOption.status == 0 && byOption.stderr.isEmpty, "\(byOption.stderr)")
        let byPositional = try await CLIRunner.run(["db", "init", old])
        #expect(byPositional.status == 0 && FileManager.default.fileExists(atPath: old))
        #expect(byPositional.stderr.contains("deprecated") && byPositional.stderr.contains("--db"))
        let byEnvironment = try await CLIRunner.run(["db", "check"], environment: ["ONCUE_DB": fresh])
        #expect(byEnvironment.status == 0 && byEnvironment.stdout.hasPrefix("ok"), "\(byEnvironment.stderr)")
        let both = try await CLIRunner.run(["db", "stats", "--db", fresh, old])
        #expect(both.status == 2 && both.stderr.contains("not both"), "\(both.stderr)")
        for command in ["stats", "check"] {
            let positional = try await CLIRunner.run(["db", command, fresh])
            let option = try await CLIRunner.run(["db", command, "--db", fresh])
            #expect(positional.status == 0 && positional.stdout == option.stdout)
        }
    }

    @Test(
        "--json is --format json, and a table is the default, in every command that prints results",
        arguments: [
            ["db", "stats"], ["nearest", "40.75", "-73.98"], ["networks", "list"], ["imports", "list"],
            ["refresh", "40.75", "-73.98"],
        ])
    func formatOptionIsOneOption(command: [String]) async throws {
        let (dir, path) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = command + ["--db", path]
        let json = try await CLIRunner.run(args + ["--json"])
        let format = try await CLIRunner.run(args + ["--format", "json"])
        let table = try await CLIRunner.run(args)
        let explicitTable = try await CLIRunner.run(args + ["--format", "table"])
        #expect(json.status == 0 && format.status == 0 && table.status == 0, "\(json.stderr)\(format.stderr)\(table.stderr)")
        // The refresh answer carries server_time, which moves between runs.
        func stable(_ s: String) -> String { s.replacing(/"server_time":"[^"]*"/, with: "") }
        #expect(stable(json.stdout) == stable(format.stdout))
        #expect((try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8), options: [.fragmentsAllowed])) != nil, "not JSON: \(json.stdout)")
        #expect(table.stdout == explicitTable.stdout && table.stdout != json.stdout)
        #expect((try? JSONSerialization.jsonObject(with: Data(table.stdout.utf8))) == nil, "the default is a table")
        let bogus = try await CLIRunner.run(args + ["--format", "yaml"])
        #expect(bogus.status == 2 && bogus.stderr.contains("table") && bogus.stderr.contains("json"))
    }

    @Test("--network is repeatable and takes comma lists, in nearest and refresh alike")
    func networkListsOneWay() async throws {
        let (dir, path) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        for command in [["nearest", "40.75", "-73.98"], ["refresh", "40.75", "-73.98", "--only-card-networks"]] {
            let base = command + ["--db", path, "--format", "json"]
            let repeated = try await CLIRunner.run(base + ["--network", "acme", "--network", "crux"])
            let listed = try await CLIRunner.run(base + ["--network", "acme,crux"])
            let legacy = try await CLIRunner.run(base + ["--networks", "acme, crux"])
            func ids(_ r: CLIRunner.Result) -> Set<String> {
                Set(r.stdout.matches(of: /"(?:network_id|networkId)" ?: ?"([a-z]+)"/).map { String($0.output.1) })
            }
            #expect(repeated.status == 0, "\(repeated.stderr)")
            #expect(ids(repeated) == ["acme", "crux"], "\(command): \(repeated.stdout)")
            #expect(ids(listed) == ids(repeated) && ids(legacy) == ids(repeated))
        }
    }

    @Test("closed sets are parsed by the parser: a wrong value is a usage error naming the right ones")
    func closedSetsListTheirValues() async throws {
        let (dir, path) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("a.csv").path
        try Data("id,name,latitude,longitude\n1,A,40.7,-74.0\n".utf8).write(to: URL(fileURLWithPath: csv))
        let cases: [([String], [String])] = [
            (["import", csv, "--db", path, "--network", "acme", "--encoding", "ebcdic"], ["utf-8", "windows-1252", "latin-1"]),
            (["import", csv, "--db", path, "--network", "acme", "--delimiter", "x"], [",", ";", "tab", "|"]),
            (["replay", csv, "--db", path, "--profile", "nokia"], ["ios", "android", "ideal"]),
        ]
        for (args, values) in cases {
            let r = try await CLIRunner.run(args)
            #expect(r.status == 2, "\(args): \(r.status) \(r.stderr)")
            for v in values { #expect(r.stderr.contains(v), "\(args): \(r.stderr) does not list \(v)") }
        }
        for spelling in ["latin-1", "cp1252", "UTF8"] {
            let r = try await CLIRunner.run(["import", csv, "--db", path, "--network", "acme", "--encoding", spelling, "--dry-run"])
            #expect(r.status == 0, "--encoding \(spelling): \(r.stderr)")
        }
        let tab = try await CLIRunner.run(["import", csv, "--db", path, "--network", "acme", "--delimiter", "tab", "--dry-run"])
        #expect(tab.status != 2, "\(tab.stderr)")
    }

    /// What `--set` and `--recommended` applied is in every output: the JSON of a comparison and of a sweep, and the
    /// table's heading (a recommendation's run once wrote `"settings": {}`).
    @Test("--set and --recommended write the settings they applied into the outputs")
    func appliedSettingsAreRecorded() async throws {
        let (dir, path) = try Self.store()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("walk.csv").path
        let rows = (0..<120).map { "\($0 * 10),\(40.7490 + Double($0) * 0.00002),-73.98" }
        try Data(("t,lat,lon\n" + rows.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: trace))
        let wallet = dir.appendingPathComponent("wallet.json").path
        try Data(#"{"cards": [{"network_id": "acme", "name": "Acme"}]}"#.utf8).write(to: URL(fileURLWithPath: wallet))
        let recommendation = dir.appendingPathComponent("recommended.json").path
        try Data(#"{"ios": {"strategy": "guaranteed+clamp", "set": {"app.confirm_seconds": 60}}}"#.utf8).write(
            to: URL(fileURLWithPath: recommendation))
        let base = ["replay", trace, "--db", path, "--wallet", wallet]
        for extra in [
            ["--set", "app.cooldown_seconds=1800", "--format", "json"], ["--seeds", "2", "--set", "app.cooldown_seconds=1800", "--format", "json"],
        ] {
            let r = try await CLIRunner.run(base + extra)
            #expect(r.status == 0, "\(extra): \(r.stderr)")
            let applied = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            #expect(applied?["applied"] as? [String: String] == ["app.cooldown_seconds": "1800"], "\(extra): \(r.stdout.prefix(300))")
        }
        let recommended = try await CLIRunner.run(base + ["--recommended", recommendation, "--set", "app.cooldown_seconds=1800"])
        #expect(recommended.status == 0, "\(recommended.stderr)")
        #expect(recommended.stdout.contains("settings applied: app.confirm_seconds=60, app.cooldown_seconds=1800"), "\(recommended.stdout)")
        // A mistyped key is a usage error (exit 2) naming it, before anything runs.
        let typo = try await CLIRunner.run(base + ["--set", "app.cooldown_secs=1800"])
        #expect(typo.status == 2 && typo.stderr.contains("app.cooldown_secs"), "\(typo.status): \(typo.stderr)")
        let plain = try await CLIRunner.run(base + ["--format", "json"])
        #expect((try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])?["applied"] == nil)
    }
}
