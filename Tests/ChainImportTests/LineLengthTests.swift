import LocationStore
import Testing

@testable import ChainImport

/// A line longer than the limit is not held in memory: the tokenizer reads to its end without keeping it and hands it
/// over as overlong; the importer rejects it as a row (`line_too_long`), or refuses the file when it is the header.
@Suite("Line length bound")
struct LineLengthTests {
    /// Tokenizes `text` in `chunk`-byte pieces; returns the records (overlong ones as their length) and the largest
    /// buffer a record was handed over in.
    func tokenize(_ text: [UInt8], limit: Int, chunk: Int) throws -> (records: [String], capacity: Int) {
        var tokenizer = CSVTokenizer(maxLineBytes: limit)
        var out: [String] = []
        var capacity = 0
        func take(_ r: CSVRecord) {
            capacity = max(capacity, r.bytes.capacity)
            out.append(r.overlongBytes.map { "overlong \($0) bytes, line \(r.line)" } ?? "\(r.line): " + r.strings.joined(separator: "|"))
        }
        var offset = 0
        while offset < text.count {
            let end = min(text.count, offset + chunk)
            try Array(text[offset..<end]).withUnsafeBufferPointer { try tokenizer.feed($0, take) }
            offset = end
        }
        try tokenizer.finish(take)
        return (out, capacity)
    }

    @Test(arguments: [1, 7, 64, 1 << 16])
    func anOverlongLineIsSkippedAndTheNextOneReadWhole(chunk: Int) throws {
        let long = String(repeating: "x", count: 5_000)
        let text = Array("a,b\n1,\(long)\n2,\"quoted, \"\"\(long)\"\" \"\n3,\(long)\"literal\n4,ok\r\n5,\"\(long)\"\r\n6,end".utf8)
        let (records, _) = try tokenize(text, limit: 1_000, chunk: chunk)
        // 2 + 5,000; 2 + 1 + 8 + 2 + 5,000 + 2 + 2; 2 + 5,000 + 8; 2 + 1 + 5,000 + 1 (CRLF is not part of a line).
        #expect(
            records == [
                "1: a|b", "overlong 5002 bytes, line 2", "overlong 5017 bytes, line 3", "overlong 5010 bytes, line 4",
                "5: 4|ok", "overlong 5004 bytes, line 6", "7: 6|end",
            ])
    }

    /// Skipping still follows the quotes: a quote after text is literal, one after spaces opens a field whose
    /// delimiters and line breaks belong to it.
    @Test func quotesAreFollowedWhileSkipping() throws {
        let pad = String(repeating: "y", count: 300)
        let text = Array("h\n\(pad) 5'6\",x\n  \"\(pad), still \"\"quoted\",z\nnext,row\n".utf8)
        let (records, _) = try tokenize(text, limit: 256, chunk: 3)
        // 300 + 5 + 2; 2 + 1 + 300 + 16 + 1 + 2.
        #expect(records == ["1: h", "overlong 307 bytes, line 2", "overlong 322 bytes, line 3", "4: next|row"])
    }

    /// Memory: a 24 MB line in 64 KiB chunks never grows the record buffer much past the limit.
    @Test func theBufferStaysNearTheLimit() throws {
        var text = Array("id,name\n1,".utf8)
        text += [UInt8](repeating: 0x6E, count: 24 << 20)
        text += Array("\n2,b\n".utf8)
        let (records, capacity) = try tokenize(text, limit: 1 << 20, chunk: 1 << 16)
        #expect(records.count == 3 && records[1].hasPrefix("overlong") && records[2] == "3: 2|b")
        #expect(capacity <= 2 << 20, "the record buffer grew to \(capacity) bytes")
    }

    @Test func aQuoteThatNeverClosesIsStillAnErrorAtTheEnd() throws {
        let text = Array(("a\n1\n\"" + String(repeating: "q", count: 10_000)).utf8)
        #expect(throws: CSVError.unterminatedQuote(line: 3)) { _ = try tokenize(text, limit: 500, chunk: 100) }
    }

    /// A quoted field over several lines that outgrows the limit is a stray quote eating the file: skipping it would
    /// drop the rows it swallowed as one, so the file fails at once, whether the limit is passed before or after a break.
    @Test(arguments: [10, 400])
    func aRunawayQuoteOverSeveralLinesFailsAtOnce(firstLine: Int) throws {
        let rows = (0..<200).map { "r\($0),\(String(repeating: "v", count: 20))" }.joined(separator: "\n")
        let text = Array(("h,i\n1,\"" + String(repeating: "s", count: firstLine) + "\n" + rows + "\n").utf8)
        #expect(throws: CSVError.runawayQuote(line: 2, limit: 256)) { _ = try tokenize(text, limit: 256, chunk: 50) }
    }

    @Test func importerRejectsTheLongLineAndKeepsTheRest() async throws {
        let t = try TempStore()
        var options = ImportOptions(network: "acme")
        options.maxLineBytes = 256
        let text =
            "id,name,lat,lon\n1,A,40.712345,-74.012345\n2,\(String(repeating: "B", count: 1_000)),40.812345,-74.112345\n"
            + "3,\"quoted\n\(String(repeating: "C", count: 100))\",40.912345,-74.212345\n4,D,40.612345,-74.312345\n"
        let report = try await t.importText(text, options, chunkSize: 100)
        #expect(report.totals == ImportCounts(read: 4, inserted: 3, rejected: 1))
        #expect(report.files[0].rejectedByReason == ["line_too_long": 1])
        let message = try #require(report.files[0].issues.first?.message)
        #expect(message.contains("1023 bytes long, more than the limit of 256") && message.count < 200)
        #expect(try t.snapshot().map(\.id) == ["loc_acme_1", "loc_acme_3", "loc_acme_4"])
    }

    @Test func aHeaderLongerThanTheLimitRefusesTheFileWithAShortMessage() async throws {
        let t = try TempStore()
        var options = ImportOptions(network: "acme")
        options.maxLineBytes = 1_024
        let header = "id,lat,lon," + String(repeating: "h", count: 300_000) + "\n1,40.712345,-74.012345\n"
        await #expect(throws: ImportError.csv(file: "test.csv", .headerTooLong(limit: 1_024))) {
            try await t.importText(header, options, chunkSize: 4_096)
        }
        #expect(ImportError.csv(file: "test.csv", .headerTooLong(limit: 1_024)).description.count < 200)
        #expect(try t.snapshot().isEmpty)
    }

    @Test func theLimitIsChecked() async throws {
        let t = try TempStore()
        var options = ImportOptions(network: "acme")
        options.maxLineBytes = 10
        await #expect(throws: ImportError.self) { try await t.importText("id,lat,lon\n", options) }
    }
}
