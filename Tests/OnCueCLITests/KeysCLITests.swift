import Foundation
import LocationStore
import SQLiteStore
import TestSupport
import Testing

/// `oncue keys` and `oncue audit` on a store file: a token printed once and kept nowhere, listings without secrets,
/// clear refusals, and every change in the audit log as the key `cli`.
@Suite struct KeysCLITests {
    @Test func createListRevokeAndAudit() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.sqlite").path
        _ = try SQLiteLocationStore.create(path: path)

        let made = try await CLIRunner.run(["keys", "create", "--db", path, "--name", "analytics team", "--role", "read", "--json"])
        #expect(made.status == 0, "\(made.stderr)")
        let key = try #require(try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any])
        let id = try #require(key["id"] as? String)
        let token = try #require(key["token"] as? String)
        #expect(token.hasPrefix("oncue_\(id)_") && token.count > 40 && key["role"] as? String == "read")

        // The store keeps a hash, not the token: no byte of the file (or its write-ahead log) holds it.
        for file in [path, path + "-wal"] where FileManager.default.fileExists(atPath: file) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(bytes.range(of: Data(token.utf8)) == nil, "\(file) holds the token")
        }
        let stored = try #require(try SQLiteLocationStore(path: path, readOnly: true).adminKeys().first { $0.id == id })
        #expect(stored.secretSHA256.count == 64 && stored.secretSHA256.allSatisfy(\.isHexDigit) && stored.role == .read)

        let listed = try await CLIRunner.run(["keys", "list", "--db", path])
        #expect(listed.status == 0 && listed.stdout.contains(id) && listed.stdout.contains("analytics team"), "\(listed.stdout)")
        #expect(!listed.stdout.contains(token) && !listed.stdout.contains(stored.secretSHA256))

        let unnamed = try await CLIRunner.run(["keys", "create", "--db", path, "--name", "  ", "--role", "admin"])
        #expect(unnamed.status != 0 && unnamed.stderr.contains("1 to 100 printable characters"), "\(unnamed.stderr)")
        let badRole = try await CLIRunner.run(["keys", "create", "--db", path, "--name", "x", "--role", "owner"])
        #expect(badRole.status == 2 && badRole.stderr.contains("'read', 'import' or 'admin'"), "\(badRole.stderr)")

        let unknown = try await CLIRunner.run(["keys", "revoke", "k_nosuchkey000", "--db", path])
        #expect(unknown.status == 1 && unknown.stderr.contains("no admin key 'k_nosuchkey000'"), "\(unknown.stderr)")
        #expect(!unknown.stderr.contains("USAGE"), "a missing key is not a usage error: \(unknown.stderr)")
        let revoked = try await CLIRunner.run(["keys", "revoke", id, "--db", path])
        #expect(revoked.status == 0 && revoked.stdout.hasPrefix("revoked \(id)"), "\(revoked.stdout) \(revoked.stderr)")
        #expect(try SQLiteLocationStore(path: path, readOnly: true).adminKeys().first { $0.id == id }?.isRevoked == true)

        let audit = try await CLIRunner.run(["audit", "--db", path, "--json"])
        #expect(audit.status == 0, "\(audit.stderr)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [[String: Any]])
        let summary = entries.map {
            [$0["key_id"] as? String ?? "", $0["action"] as? String ?? "", $0["target"] as? String ?? "", $0["result"] as? String ?? ""]
        }
        #expect(
            summary == [
                ["cli", "keys revoke", id, "ok"], ["cli", "keys revoke", "k_nosuchkey000", "failed"], ["cli", "keys create", id, "ok"],
            ], "\(summary)")
        let paged = try await CLIRunner.run(["audit", "--db", path, "--limit", "1", "--before", String(entries[0]["id"] as? Int ?? 0)])
        #expect(paged.status == 0 && paged.stdout.contains("k_nosuchkey000") && !paged.stdout.contains("keys create"), "\(paged.stdout)")
        let badLimit = try await CLIRunner.run(["audit", "--db", path, "--limit", "0"])
        #expect(badLimit.status != 0 && badLimit.stderr.contains("--limit must be in 1...1000"), "\(badLimit.stderr)")
    }
}

/// The command line's data writes leave the same trail as the admin API's: each in the audit log as the key `cli`,
/// committed with the write it records; a failed one logged as `failed` after its rollback, a dry run not at all.
@Suite struct CommandAuditCLITests {
    @Test func importsAndEditsAreAudited() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-cli-audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.sqlite").path
        _ = try SQLiteLocationStore.create(path: path)
        let csv = dir.appendingPathComponent("acme.csv").path
        try "id,name,lat,lon\n1,Acme One,40.75,-73.99\n2,Acme Two,40.76,-73.98\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let commands: [[String]] = [
            ["import", csv, "--db", path, "--network", "acme"],
            ["import", csv, "--db", path, "--network", "acme", "--dry-run"],
            ["locations", "add", "--db", path, "--network", "acme", "--id", "3", "--name", "Acme Three", "--lat", "40.77", "--lon", "-73.97"],
            ["locations", "set", "loc_acme_3", "--db", path, "--name", "Acme 3"],
            ["locations", "delete", "loc_acme_3", "--db", path],
            ["networks", "set", "acme", "--db", path, "--name", "Acme Corp"],
            ["networks", "alias", "acme", "ACME Stores", "--db", path],
            ["networks", "delete", "acme", "--db", path],
            ["networks", "delete", "acme", "--db", path],
        ]
        for command in commands { _ = try await CLIRunner.run(command) }
        let audit = try await CLIRunner.run(["audit", "--db", path, "--json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [[String: Any]])
        let summary = entries.reversed().map { [$0["key_id"] as? String ?? "", $0["action"] as? String ?? "", $0["result"] as? String ?? ""] }
        #expect(
            summary == [
                ["cli", "import", "ok"], ["cli", "locations add", "ok"], ["cli", "locations set", "ok"], ["cli", "locations delete", "ok"],
                ["cli", "networks set", "ok"], ["cli", "networks alias", "ok"], ["cli", "networks delete", "ok"],
                ["cli", "networks delete", "failed"],
            ], "\(summary)")
        let imported = try #require(entries.last)
        #expect(imported["target"] as? String == "acme.csv network=acme", "\(imported)")
        #expect(imported["detail"] as? String == "2 rows read, 0 rejected", "\(imported)")
        #expect((entries.first?["detail"] as? String) == "no such network", "\(entries.first ?? [:])")
    }
}
