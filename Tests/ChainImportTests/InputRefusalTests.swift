import ChainImport
import Foundation
import LocationStore
import SQLiteStore
import TestSupport
import Testing

/// Inputs that are not what they claim are refused loudly and change nothing: a misspelt mapping key, a binary file,
/// a header without rows, a header read on the wrong delimiter. The failure's log entry describes the real file.
@Suite("inputs refused loudly")
struct InputRefusalTests {
    @Test func aMisspeltMappingKeyIsRefusedNamingTheKeyItMeant() throws {
        #expect(throws: MappingError.self) { try MappingFile.decode(Data(#"{"colums": {"id": "id"}}"#.utf8), source: "m.json") }
        do {
            _ = try MappingFile.decode(Data(#"{"colums": {"id": "id"}}"#.utf8), source: "m.json")
        } catch {
            #expect("\(error)".contains("unknown key 'colums' (did you mean 'columns'?)"), "\(error)")
        }
        do {
            _ = try MappingFile.decode(Data(#"{"columns": {"lattitude": "Y"}}"#.utf8), source: "m.json")
        } catch {
            #expect("\(error)".contains("'lattitude' (did you mean 'latitude'?)"), "\(error)")
        }
        #expect(throws: Never.self) { try MappingFile.decode(Data(#"{"columns": {"latitude": "Y"}, "network": "x"}"#.utf8), source: "m.json") }
    }

    static let binaries: [(bytes: [UInt8], looksLike: String)] = [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], "a PNG image"),
        (Array("PK".utf8) + [3, 4] + [UInt8](repeating: 0, count: 20), "ZIP archive"),
        (Array("SQLite format 3".utf8) + [0, 16, 0], "an SQLite database"),
        ([0x1F, 0x8B, 8, 0, 0, 0, 0, 0], "gzip"),
        (Array("id,name\n".utf8) + [0, 1, 2, 3, 0, 0, 0, 9], "NUL bytes"),
        (Self.noise(4_096), "a binary file"),
    ]

    /// Bytes of no format at all (a linear congruential generator's): what an encrypted or compressed file looks like.
    static func noise(_ count: Int) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    @Test("a file that is not text is refused before a header is read, saying what it looks like", arguments: 0..<6)
    func binaryFilesAreRefused(case index: Int) async throws {
        let (bytes, looksLike) = Self.binaries[index]
        let t = try TempStore()
        do {
            _ = try await ChainImporter(store: t.store, options: ImportOptions(network: "x")).run([.bytes(bytes, name: "f.csv")])
            Issue.record("imported")
        } catch {
            #expect("\(error)".contains("not a CSV or GeoJSON text file") && "\(error)".contains(looksLike), "\(error)")
        }
        #expect(try t.store.networks().isEmpty)
        // Latin-1 and UTF-8 text pass.
        let text = Array("id,name,lat,lon\n1,Café,40.7128,-74.0060\n".utf8)
        let latin1: [UInt8] = Array("id,name,lat,lon\n1,Caf".utf8) + [0xE9] + Array(",40.7128,-74.0060\n".utf8)
        for good in [text, latin1] {
            let report = try await ChainImporter(store: t.store, options: ImportOptions(network: "x")).run([.bytes(good)])
            #expect(report.totals.read == 1)
        }
    }

    @Test func aHeaderWithoutRowsCreatesNoNetwork() async throws {
        let t = try TempStore()
        do {
            try await t.importText("id,name,lat,lon\n", ImportOptions(network: "brand-new"))
            Issue.record("imported")
        } catch {
            #expect("\(error)".contains("a header and no data rows"), "\(error)")
        }
        #expect(try t.store.network(id: "brand-new") == nil)
        // Emptying a network that exists is what such a file is for.
        try await t.importText("id,name,lat,lon\n1,A,40.7128,-74.0060\n", ImportOptions(network: "kept"))
        var options = ImportOptions(network: "kept")
        options.replaceNetwork = true
        let emptied = try await t.importText("id,name,lat,lon\n", options)
        let left = try t.snapshot()
        #expect(emptied.files.first?.counts.removed == 1 && left.isEmpty)
    }

    @Test func aHeaderThatDoesNotSplitNamesTheDelimiterThatWould() async throws {
        let t = try TempStore()
        var options = ImportOptions(network: "x")
        options.delimiter = UInt8(ascii: ";")
        do {
            try await t.importText("id,name,lat,lon\n1,A,40.7128,-74.0060\n", options)
            Issue.record("imported")
        } catch {
            #expect("\(error)".contains("does not split on ';'") && "\(error)".contains("on ',' it has 4 columns"), "\(error)")
        }
    }

    @Test func aFailedImportLogsTheFilesRealSizeAndChecksum() async throws {
        let t = try TempStore()
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 3_000)
        let path = t.directory.appendingPathComponent("picture.csv").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        _ = try? await t.importFiles([path], ImportOptions(network: "x"))
        let record = try #require(try t.store.imports(limit: 1).first)
        #expect(record.status == "failed" && record.fileSize == Int64(bytes.count))
        // The oracle: coreutils' sha256sum over the same file.
        let sum = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), [path])
        #expect(record.sha256 == String(sum.stdout.prefix(64)))
    }
}
