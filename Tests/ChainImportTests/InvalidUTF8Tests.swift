import Foundation
import LocationStore
import SQLiteStore
import Testing

@testable import ChainImport

/// A UTF-8 file with a few bad bytes stays UTF-8: the bad bytes become U+FFFD and their rows are warned, or with
/// `strictUTF8` the file is refused at the line. Files that really are Windows-1252 or Latin-1 are still read as such.
@Suite("Invalid UTF-8")
struct InvalidUTF8Tests {
    func importBytes(_ t: TempStore, _ bytes: [UInt8], _ options: ImportOptions, chunkSize: Int = 1 << 16) async throws -> ImportReport {
        try await ChainImporter(store: t.store, options: options).run([.bytes(bytes, name: "u.csv", chunkSize: chunkSize)])
    }

    /// One bad byte near the end used to turn every earlier row into mojibake (`CafÃ©`), with no warning.
    @Test(arguments: [7, 1 << 16])
    func oneBadByteKeepsTheFileUTF8AndWarnsItsRow(chunkSize: Int) async throws {
        let t = try TempStore()
        var bytes = Array("id,name,lat,lon\n1,Café Zoë,40.112345,-74.112345\n2,Smørrebrød – 北京,40.212345,-74.212345\n3,Bad ".utf8)
        bytes += [0xFF]
        bytes += Array(" byte,40.312345,-74.312345\n".utf8)
        let report = try await importBytes(t, bytes, ImportOptions(network: "acme"), chunkSize: chunkSize)
        #expect(report.files[0].encoding == "utf-8")
        #expect(report.files[0].mixedEncoding == false)
        #expect(report.totals == ImportCounts(read: 3, inserted: 3, warned: 1))
        #expect(report.files[0].warningsByReason == ["invalid_utf8": 1])
        #expect(report.files[0].issues.first?.line == 4)
        #expect(try t.store.location(id: "loc_acme_1")?.name == "Café Zoë")
        #expect(try t.store.location(id: "loc_acme_2")?.name == "Smørrebrød – 北京")
        #expect(try t.store.location(id: "loc_acme_3")?.name == "Bad \u{FFFD} byte")
    }

    @Test func strictModeRefusesTheFileAtTheLine() async throws {
        let t = try TempStore()
        var bytes = Array("id,name,lat,lon\n1,Café,40.112345,-74.112345\n2,Bad".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array(",40.212345,-74.212345\n".utf8)
        var options = ImportOptions(network: "acme")
        options.strictUTF8 = true
        await #expect(throws: ImportError.csv(file: "u.csv", .invalidUTF8(line: 3, column: "'name'"))) {
            try await importBytes(t, bytes, options)
        }
        #expect(try t.snapshot().isEmpty)
        // A valid file goes in as usual.
        let fine = try await importBytes(t, Array("id,name,lat,lon\n1,Café,40.112345,-74.112345\n".utf8), options)
        #expect(fine.totals == ImportCounts(read: 1, inserted: 1))
        options.encoding = .windows1252
        await #expect(throws: ImportError.self) { try await importBytes(t, Array("id,lat,lon\n".utf8), options) }
    }

    /// Forcing UTF-8 replaces bad bytes too; it never falls back to Windows-1252 for a field.
    @Test func forcedUTF8ReplacesAndWarns() async throws {
        let t = try TempStore()
        var bytes = Array("id,name,lat,lon\n1,Caf".utf8)
        bytes += [0xE9]
        bytes += Array(",40.112345,-74.112345\n".utf8)
        let report = try await importBytes(t, bytes, ImportOptions(network: "acme", encoding: .utf8))
        #expect(report.files[0].warningsByReason == ["invalid_utf8": 1])
        #expect(try t.store.location(id: "loc_acme_1")?.name == "Caf\u{FFFD}")
    }

    /// A real Windows-1252 file (no valid multibyte sequence, or fewer than bad bytes) still decodes as Windows-1252.
    @Test func windows1252FilesAreStillDetected() async throws {
        let t = try TempStore()
        var bytes = Array("id,name,lat,lon\n1,".utf8)
        bytes += [0x43, 0x61, 0x66, 0xE9, 0x20, 0x96, 0x20, 0xC9, 0x6C, 0xE8, 0x76, 0x65]  // Café – Élève
        bytes += Array(",40.112345,-74.112345\n2,".utf8)
        bytes += [0xC3, 0xA9, 0x74, 0xE9]  // "Ã©té": a valid UTF-8 pair among Windows-1252 bytes
        bytes += Array(",40.212345,-74.212345\n".utf8)
        let report = try await importBytes(t, bytes, ImportOptions(network: "acme"))
        #expect(report.files[0].encoding == "windows-1252")
        #expect(report.files[0].warningsByReason.isEmpty)
        #expect(try t.store.location(id: "loc_acme_1")?.name == "Café – Élève")
        #expect(try t.store.location(id: "loc_acme_2")?.name == "Ã©té")
    }

    @Test func detectorCountsAndVerdict() {
        var d = EncodingDetector()
        let bytes = Array("Café Zoë – ".utf8) + [0xFF]
        bytes.withUnsafeBufferPointer { d.scan($0) }
        d.finish()
        #expect(d.validSequences == 3 && d.invalidSequences == 1)
        #expect(d.looksUTF8 && !d.isValidUTF8 && d.encoding == .utf8)
        #expect(d.decode(bytes[...]) == "Café Zoë – \u{FFFD}")
        #expect(d.takeReplaced() && !d.takeReplaced())
    }
}
