import Testing

@testable import ChainImport

@Suite("CSV tokenizer")
struct CSVTokenizerTests {
    func rows(_ text: String, delimiter: Character = ",") throws -> [[String]] {
        try CSVTokenizer.records(Array(text.utf8), delimiter: delimiter.asciiValue!).map(\.strings)
    }

    @Test func quotedFieldsWithDelimitersQuotesAndLineBreaks() throws {
        let text = "a,b,c\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\n"
        #expect(try rows(text) == [["a", "b", "c"], ["x, y", "say \"hi\"", "two\nlines"]])
    }

    @Test func lineNumbersCountPhysicalLinesIncludingThoseInsideQuotes() throws {
        let records = try CSVTokenizer.records(Array("h1,h2\n\"multi\nline\",1\nnext,2\r\nlast,3".utf8))
        #expect(records.map(\.line) == [1, 2, 4, 5])
    }

    @Test func crlfLfAndLoneCRAreAllLineEnds() throws {
        #expect(try rows("a,b\r\n1,2\r\n") == [["a", "b"], ["1", "2"]])
        #expect(try rows("a,b\n1,2\n") == [["a", "b"], ["1", "2"]])
        #expect(try rows("a,b\r1,2\r") == [["a", "b"], ["1", "2"]])
        #expect(try rows("a,\"b\"\r\n1,\"2\"\r\n") == [["a", "b"], ["1", "2"]])
    }

    @Test func missingFinalNewlineStillYieldsTheLastRow() throws {
        #expect(try rows("a,b\n1,2") == [["a", "b"], ["1", "2"]])
        #expect(try rows("a,b\n1,\"2\"") == [["a", "b"], ["1", "2"]])
        #expect(try rows("a,b\n1,") == [["a", "b"], ["1", ""]])
    }

    @Test func blankLinesAreSkippedButEmptyFieldsKept() throws {
        #expect(try rows("a,b\n\n1,2\n\r\n,\n") == [["a", "b"], ["1", "2"], ["", ""]])
    }

    @Test func semicolonAndTabDelimiters() throws {
        #expect(try rows("a;b\n\"1;x\";2\n", delimiter: ";") == [["a", "b"], ["1;x", "2"]])
        #expect(try rows("a\tb\n1\t2\n", delimiter: "\t") == [["a", "b"], ["1", "2"]])
    }

    @Test func lenientQuotes() throws {
        // A quote inside an unquoted field is literal; spaces around a quoted field are padding.
        #expect(try rows("5'6\",x\n") == [["5'6\"", "x"]])
        #expect(try rows("a, \"b, c\" ,d\n") == [["a", "b, c", "d"]])
        #expect(try rows("\"ab\"cd,e\n") == [["abcd", "e"]])
        // Backslashes are data, not escapes (Costco's `Coeur D\'Alene`).
        #expect(try rows("Coeur D\\'Alene,1\n") == [["Coeur D\\'Alene", "1"]])
    }

    @Test func unterminatedQuoteIsAnErrorWithTheLineItStarted() throws {
        #expect(throws: CSVError.unterminatedQuote(line: 3)) { try rows("a,b\n1,2\n3,\"oops\n4,5\n") }
    }

    /// The same text cut into chunks of every small size gives the same records: no state is lost
    /// at chunk boundaries (inside quotes, between CR and LF, after a closing quote).
    @Test(arguments: [1, 2, 3, 5, 7, 64])
    func chunkBoundariesDoNotMatter(chunkSize: Int) throws {
        let text = Array("id,name\r\n1,\"a \"\"quoted\"\", name\"\r\n2,\"multi\r\nline\"\r\n\r\n3,plain\r\n4,\"end\"".utf8)
        let whole = try CSVTokenizer.records(text)
        var tokenizer = CSVTokenizer()
        var chunked: [CSVRecord] = []
        var offset = 0
        while offset < text.count {
            let end = min(text.count, offset + chunkSize)
            try Array(text[offset..<end]).withUnsafeBufferPointer { try tokenizer.feed($0) { chunked.append($0) } }
            offset = end
        }
        try tokenizer.finish { chunked.append($0) }
        #expect(chunked.map(\.strings) == whole.map(\.strings))
        #expect(chunked.map(\.line) == whole.map(\.line))
        #expect(whole.map(\.line) == [1, 2, 3, 6, 7])
        #expect(whole[2].strings == ["2", "multi\r\nline"])
    }
}
