import Foundation
import LocationStore
import Testing

@_spi(ParseTrace) @testable import ChainImport

/// The inputs the libFuzzer campaign found (Fuzz/Regressions, RELIABILITY.md), replayed with each fuzzer's property,
/// and the defects behind them stated as plain tests.
@Suite("Fuzz regressions: CSV import")
struct ImportFuzzRegressionTests {
    static func inputs(_ target: String) -> [URL] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions/\(target)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }

    /// Deterministic cuts: every read 1, 2 or 3 bytes long, so a boundary falls inside every sequence and record end.
    static func pieces(_ bytes: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var start = 0
        var k = 0
        while start < bytes.count {
            let size = min(bytes.count - start, 1 + k % 3)
            out.append(Array(bytes[start..<(start + size)]))
            start += size
            k += 1
        }
        return out
    }

    static func tokenize(_ pieces: [[UInt8]], limit: Int) -> ([[UInt8]], [Int], [Int64?], CSVError?) {
        var tokenizer = CSVTokenizer(maxLineBytes: limit)
        var records: [[UInt8]] = []
        var lines: [Int] = []
        var overlong: [Int64?] = []
        func take(_ r: CSVRecord) {
            records.append(r.bytes)
            lines.append(r.line)
            overlong.append(r.overlongBytes)
        }
        do {
            for piece in pieces { try piece.withUnsafeBufferPointer { try tokenizer.feed($0, take) } }
            try tokenizer.finish(take)
            return (records, lines, overlong, nil)
        } catch {
            return (records, lines, overlong, error as? CSVError)
        }
    }

    @Test func theRegressionsAreThere() {
        for target in ["CSVTokenizerFuzzer", "CSVRowsFuzzer", "EncodingFuzzer"] { #expect(!Self.inputs(target).isEmpty, "\(target)") }
    }

    @Test(arguments: inputs("CSVTokenizerFuzzer"))
    func tokenizerGivesTheSameRecordsAndLinesInAnyReads(file: URL) throws {
        let bytes = try [UInt8](Data(contentsOf: file))
        for limit in [1, 16, 37, 1 << 20] {
            let whole = Self.tokenize([bytes], limit: limit)
            let cut = Self.tokenize(Self.pieces(bytes), limit: limit)
            #expect(whole.0 == cut.0 && whole.1 == cut.1 && whole.2 == cut.2 && whole.3 == cut.3, "\(file.lastPathComponent), limit \(limit)")
            for (record, overlong) in zip(whole.0, whole.2) where overlong == nil {
                #expect(record.count <= limit, "\(file.lastPathComponent): a kept record of \(record.count) bytes, limit \(limit)")
            }
        }
    }

    /// The defect behind the first finding: after a CR inside quotes, an LF further on was taken for the CR's partner.
    @Test func anLFAfterTextThatFollowsACRInQuotesIsALineOfItsOwn() throws {
        let bytes = Array("a,b\n\"x\ry\nz\",1\nnext,2\n".utf8)
        for reads in [[bytes], Self.pieces(bytes)] {
            #expect(Self.tokenize(reads, limit: 1 << 20).1 == [1, 2, 5])
        }
    }

    /// The defect behind the second: a last record without a line break was never measured against the limit.
    @Test func aLastRecordWithoutALineBreakIsMeasured() {
        let (records, _, overlong, error) = Self.tokenize([Array("a,b\n0123456789,0123456789".utf8)], limit: 16)
        #expect(error == nil && records.count == 2 && overlong == [nil, 21])
    }

    @Test(arguments: inputs("EncodingFuzzer"))
    func encodingVerdictDoesNotDependOnTheReads(file: URL) throws {
        let bytes = try [UInt8](Data(contentsOf: file))
        var whole = EncodingDetector(forced: nil)
        var cut = EncodingDetector(forced: nil)
        bytes.withUnsafeBufferPointer { whole.scan($0) }
        for piece in Self.pieces(bytes) { piece.withUnsafeBufferPointer { cut.scan($0) } }
        whole.finish()
        cut.finish()
        #expect(whole.encoding == cut.encoding && whole.isValidUTF8 == cut.isValidUTF8 && whole.firstInvalidOffset == cut.firstInvalidOffset)
        #expect(whole.validSequences == cut.validSequences && whole.invalidSequences == cut.invalidSequences)
    }

    @Test(arguments: inputs("CSVRowsFuzzer"))
    func rowsDoNotDependOnTheReads(file: URL) throws {
        let bytes = try [UInt8](Data(contentsOf: file))
        for blockSize in [1, 7, 64, 1 << 20] {
            for fixed in [true, false] {
                let knobs = ImportParseTrace.Knobs(fixedNetwork: fixed, blockSize: blockSize)
                var small = knobs
                small.batchSize = 1
                #expect(
                    ImportParseTrace.parse([bytes], knobs: knobs) == ImportParseTrace.parse(Self.pieces(bytes), knobs: small),
                    "\(file.lastPathComponent), block \(blockSize)")
            }
        }
    }

    /// The defect behind the rows finding, end to end: one file, imported from reads of 1 byte, 7 bytes or 64 KiB,
    /// gives the same report (the encoding of early rows was decided from however many bytes the first reads held).
    @Test func theSameFileImportsAlikeWhateverTheReads() async throws {
        let bytes = try [UInt8](Data(contentsOf: Self.inputs("CSVRowsFuzzer").first { $0.lastPathComponent.hasPrefix("encoding") }!))
        var reports: [String] = []
        for chunkSize in [1, 7, 1 << 16] {
            let t = try TempStore()
            let report = try await ChainImporter(store: t.store, options: ImportOptions(network: "acme"))
                .run([.bytes(bytes, name: "f.csv", chunkSize: chunkSize)])
            reports.append("\(report.totals) \(report.files[0].encoding) \(report.files[0].issues.map { "\($0.line) \($0.code) \($0.message)" })")
        }
        #expect(Set(reports).count == 1, "\(reports)")
    }
}
