import Foundation
import TestSupport
import Testing

/// `oncue export` writes what `oncue import` reads back: a store exported and imported into a fresh one holds the
/// same locations (`db stats`) and answers every region refresh alike — the oracle is the first store itself.
@Suite("oncue export round-trips through oncue import")
struct ExportCLITests {
    static let libraries = SharedDatasets.repository.appendingPathComponent("datasets/us-public-libraries-imls/PLS_FY19_Outlet_pud19i.csv").path

    /// Where to ask: Austin, Manhattan and the middle of Kansas (towns far apart, regions sized by the rural policy).
    static let points = [("30.2672", "-97.7431"), ("40.7128", "-74.0060"), ("38.5", "-98.5")]

    func run(_ args: [String]) async throws -> CLIRunner.Result {
        let result = try await CLIRunner.run(args)
        #expect(result.status == 0, "\(args.prefix(3)): \(result.stderr)")
        return result
    }

    /// `db stats` without what differs by design (the file, its size, the import count).
    func stats(_ path: String) async throws -> [String: String] {
        let out = try await run(["db", "stats", "--db", path, "--format", "json"]).stdout
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        var kept: [String: String] = [:]
        for key in ["locations", "networks", "bounds"] {
            let value = object[key] ?? "-"
            kept[key] =
                JSONSerialization.isValidJSONObject(value)
                ? String(decoding: try JSONSerialization.data(withJSONObject: value, options: .sortedKeys), as: UTF8.self) : "\(value)"
        }
        return kept
    }

    func answers(_ path: String, networks: String) async throws -> [String] {
        var out: [String] = []
        for (lat, lon) in Self.points {
            let json = try await run(["refresh", "--db", path, lat, lon, "--network", networks, "--format", "json"]).stdout
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            for region in object["regions"] as? [[String: Any]] ?? [] {
                out.append("\(region["id"] ?? "") \(region["radius_meters"] ?? "") \(region["lat"] ?? "") \(region["lon"] ?? "")")
            }
        }
        return out
    }

    @Test(arguments: ["csv", "geojson", "geojsonseq"])
    func aStoreExportedAndImportedAgainAnswersAlike(format: String) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appendingPathComponent("first.sqlite").path
        let second = dir.appendingPathComponent("second.sqlite").path
        let file = dir.appendingPathComponent("export.\(format)").path
        // The outlets of four states (2,459 of 17,496): the real file's rows, few enough to import three times.
        // Bytes, not text: the file is Windows-1252.
        let lines = try Data(contentsOf: URL(fileURLWithPath: Self.libraries)).split(separator: UInt8(ascii: "\n"))
        let states = ["TX,", "NY,", "AK,", "KS,"].map { Data($0.utf8) }
        let kept = [lines[0]] + lines.dropFirst().filter { states.contains(Data($0.prefix(3))) }
        let libraries = dir.appendingPathComponent("libraries.csv").path
        try Data(kept.joined(separator: [UInt8(ascii: "\n")]) + [UInt8(ascii: "\n")]).write(to: URL(fileURLWithPath: libraries))
        _ = try await run(["db", "init", "--db", first])
        _ = try await run([
            "import", libraries, "--db", first, "--network-column", "FSCSKEY", "--network-name-column", "LIBNAME",
            "--network-name-where", "C_OUT_TY=CE", "--category", "library",
        ])
        _ = try await run(["export", "--db", first, "--format", format, "--out", file])
        _ = try await run(["db", "init", "--db", second])
        let reimport = try await run(["import", file, "--db", second, "--category", "library", "--format", "json"])
        #expect(reimport.stdout.contains("\"rejected\" : 0"), "every exported row is taken back")
        #expect(try await stats(second) == stats(first))
        let networks = "tx0111,tx0043,ny0778,ak0001,ks0198"
        let before = try await answers(first, networks: networks)
        #expect(before.count > 20, "the points have regions to compare")
        #expect(try await answers(second, networks: networks) == before)
        // Network names travel with the rows.
        let shown = try await run(["networks", "show", "tx0111", "--db", second]).stdout
        #expect(shown.hasPrefix("tx0111: AUSTIN PUBLIC LIBRARY"), "\(shown)")
    }

    @Test func oneNetworkOnlyAndNoHalfFileOnFailure() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("s.sqlite").path
        _ = try await run(["db", "init", "--db", store])
        let csv = dir.appendingPathComponent("a.csv").path
        try Data("id,brand,name,lat,lon\n1,Acme,\"Acme, Main\",40.7128,-74.0060\n2,Other,Other One,40.73,-73.99\n".utf8)
            .write(to: URL(fileURLWithPath: csv))
        _ = try await run(["import", csv, "--db", store, "--network-column", "brand"])
        let only = try await run(["export", "--db", store, "--network", "acme"]).stdout
        #expect(only.split(separator: "\n").count == 2 && only.contains("\"Acme, Main\"") && !only.contains("Other"), "\(only)")
        #expect(only.contains("40.7128,-74.0060"), "a precise point keeps four decimals: \(only)")
        let out = dir.appendingPathComponent("never.csv").path
        let failed = try await CLIRunner.run(["export", "--db", store, "--network", "nope", "--out", out])
        #expect(failed.status == 1 && !FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.contains(".partial-") })
    }
}
