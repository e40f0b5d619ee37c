/// A streaming RFC 4180 tokenizer over bytes.
///
/// Feed it chunks of any size (a record may straddle chunks), then call `finish()`. It accepts
/// quoted fields with delimiters, doubled quotes and line breaks; CRLF, LF and lone CR line ends;
/// a missing final line break; blank lines (skipped). Leniencies, as in the files admins actually
/// get: a quote inside an unquoted field is kept literally, spaces before an opening quote and
/// after a closing quote are dropped. It works on bytes, so it is correct for UTF-8 and for the
/// single-byte encodings whose ASCII range is ASCII (Windows-1252, Latin-1); decoding happens per field.
///
/// Memory is bounded by `maxLineBytes`, not by the input: a record that grows past it stops being
/// buffered and is read to its end (quotes still followed, so the next record starts where it should),
/// then handed over with `overlongBytes` set and no fields. One that does so inside a quoted field
/// spanning lines throws `runawayQuote` at once: that is a stray quote swallowing the rest of the file,
/// and skipping it would drop every row it swallowed as one.
public struct CSVTokenizer: Sendable {
    public let delimiter: UInt8
    /// The longest record kept, in bytes (delimiters, quotes and line breaks inside quotes included).
    public let maxLineBytes: Int

    private var record = CSVRecord()
    private var state = State.fieldStart
    private var line = 1
    private var recordLine = 1
    private var afterCR = false
    private var fieldStart = 0
    private var fieldWasQuoted = false
    /// Input offset of the current chunk's first byte, and of the current record's first byte.
    private var consumed: Int64 = 0
    private var recordStart: Int64 = 0
    /// The current record passed `maxLineBytes`: its bytes are no longer kept.
    private var overlong = false
    /// Whether the current unquoted field has only spaces so far; kept only while `overlong`, when the bytes that
    /// would tell are gone (a quote after spaces opens a quoted field, after text it is a literal).
    private var fieldBlank = true

    private enum State { case fieldStart, unquoted, quoted, quotedQuote }

    private static let quote = UInt8(ascii: "\"")
    private static let cr = UInt8(ascii: "\r")
    private static let lf = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")

    public init(delimiter: UInt8 = UInt8(ascii: ","), maxLineBytes: Int = 1 << 20) {
        self.delimiter = delimiter
        self.maxLineBytes = max(1, maxLineBytes)
        record.bytes.reserveCapacity(4096)
        record.ends.reserveCapacity(64)
    }

    /// The physical line the tokenizer has reached (1-based).
    package var currentLine: Int { line }

    /// Whether the record being read has grown past `maxLineBytes` (its end has not been seen yet).
    package var isSkippingOverlongRecord: Bool { overlong }

    /// The line the record being read started on.
    package var currentRecordLine: Int { recordLine }

    /// Tokenizes `chunk`, calling `body` for every complete record.
    public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ body: (CSVRecord) throws -> Void) throws {
        let n = chunk.count
        let base = consumed
        defer { consumed += Int64(n) }
        let limit = Int64(maxLineBytes)
        var i = 0
        while i < n {
            if !overlong && base + Int64(i) - recordStart > limit { try startSkipping() }
            let wasCR = afterCR
            afterCR = false
            // Each step reads from `i` and moves it past what it consumed (a field start that turns out unquoted
            // consumes nothing: the byte is read again as the field's first).
            switch state {
            case .fieldStart: try stepFieldStart(chunk, &i, base: base, wasCR: wasCR, body)
            case .unquoted: try stepUnquoted(chunk, &i, base: base, body)
            case .quoted: try stepQuoted(chunk, &i, base: base, wasCR: wasCR)
            case .quotedQuote: try stepQuotedQuote(chunk, &i, base: base, body)
            }
        }
    }

    @inline(__always)
    private mutating func stepFieldStart(
        _ chunk: UnsafeBufferPointer<UInt8>, _ i: inout Int, base: Int64, wasCR: Bool,
        _ body: (CSVRecord) throws -> Void
    ) throws {
        let b = chunk[i]
        if b == Self.quote {
            state = .quoted
            fieldWasQuoted = true
            i += 1
        } else if b == delimiter {
            endField()
            i += 1
        } else if b == Self.lf || b == Self.cr {
            if b == Self.lf && wasCR {  // the LF of a CRLF that already ended the record
                recordStart += 1
                i += 1
                return
            }
            countLineEnd(b)
            try endRecord(at: base + Int64(i), body)
            i += 1
        } else {
            state = .unquoted
            fieldBlank = true
        }
    }

    /// Takes the run of plain bytes in one go (the bulk of a typical file), then the byte that ended it.
    @inline(__always)
    private mutating func stepUnquoted(
        _ chunk: UnsafeBufferPointer<UInt8>, _ i: inout Int, base: Int64,
        _ body: (CSVRecord) throws -> Void
    ) throws {
        let n = chunk.count
        let delimiter = self.delimiter
        var j = i
        while j < n {
            let c = chunk[j]
            if c == delimiter || c == Self.quote || c == Self.cr || c == Self.lf { break }
            j += 1
        }
        if j > i { try keep(UnsafeBufferPointer(rebasing: chunk[i..<j]), endingAt: base + Int64(j), unquoted: true) }
        i = j
        guard i < n else { return }
        let c = chunk[i]
        if c == delimiter {
            endField()
            state = .fieldStart
        } else if c == Self.quote {
            if currentFieldIsBlank {
                if !overlong { record.bytes.removeSubrange(fieldStart...) }  // `a, "b"`: the quote opens the field
                state = .quoted
                fieldWasQuoted = true
            } else {
                keepByte(c)  // `5'6"`: a literal quote inside an unquoted field
                fieldBlank = false
            }
        } else {
            countLineEnd(c)
            try endRecord(at: base + Int64(i), body)
        }
        i += 1
    }

    /// Takes the run of quoted text in one go, then the quote or line break that ended it.
    @inline(__always)
    private mutating func stepQuoted(_ chunk: UnsafeBufferPointer<UInt8>, _ i: inout Int, base: Int64, wasCR: Bool) throws {
        let n = chunk.count
        var j = i
        while j < n {
            let c = chunk[j]
            if c == Self.quote || c == Self.cr || c == Self.lf { break }
            j += 1
        }
        let scanned = j > i
        if scanned { try keep(UnsafeBufferPointer(rebasing: chunk[i..<j]), endingAt: base + Int64(j), unquoted: false) }
        i = j
        guard i < n else { return }
        let c = chunk[i]
        if c == Self.quote {
            state = .quotedQuote
        } else {
            // A line break inside quotes is data; it still advances the physical line count. An LF is the second
            // half of a CRLF only when it comes right after the CR, with no text scanned between them.
            if !(c == Self.lf && wasCR && !scanned) { countLineEnd(c) }
            keepByte(c)
            if overlong { throw CSVError.runawayQuote(line: recordLine, limit: maxLineBytes) }
        }
        i += 1
    }

    /// The byte after a quote inside a quoted field: a doubled quote, or whatever follows the closing quote.
    @inline(__always)
    private mutating func stepQuotedQuote(
        _ chunk: UnsafeBufferPointer<UInt8>, _ i: inout Int, base: Int64,
        _ body: (CSVRecord) throws -> Void
    ) throws {
        let b = chunk[i]
        if b == Self.quote {
            keepByte(b)
            state = .quoted
        } else if b == delimiter {
            endField()
            state = .fieldStart
        } else if b == Self.cr || b == Self.lf {
            countLineEnd(b)
            try endRecord(at: base + Int64(i), body)
        } else if b == Self.space || b == Self.tab {
            // `"abc"  ,`: spaces after the closing quote are padding
        } else {
            keepByte(b)  // `"abc"def`: keep the text rather than lose it
            state = .unquoted
            fieldBlank = false
        }
        i += 1
    }

    /// Ends the input: emits a last record that has no line break after it.
    public mutating func finish(_ body: (CSVRecord) throws -> Void) throws {
        if state == .quoted { throw CSVError.unterminatedQuote(line: recordLine) }
        // The last record has no line break to be measured at: measure it here.
        if !overlong && consumed - recordStart > Int64(maxLineBytes) { try startSkipping() }
        if state != .fieldStart || !record.ends.isEmpty || overlong {
            try endRecord(at: consumed, body)
        }
    }

    /// Tokenizes a whole in-memory text; for tests and small inputs.
    public static func records(_ bytes: [UInt8], delimiter: UInt8 = UInt8(ascii: ","), maxLineBytes: Int = 1 << 20) throws -> [CSVRecord] {
        var tokenizer = CSVTokenizer(delimiter: delimiter, maxLineBytes: maxLineBytes)
        var out: [CSVRecord] = []
        try bytes.withUnsafeBufferPointer { try tokenizer.feed($0) { out.append($0) } }
        try tokenizer.finish { out.append($0) }
        return out
    }

    private var currentFieldIsBlank: Bool {
        overlong ? fieldBlank : record.bytes[fieldStart...].allSatisfy { $0 == Self.space || $0 == Self.tab }
    }

    /// Appends field bytes, unless the record is (or with them would be) longer than the limit.
    private mutating func keep(_ bytes: UnsafeBufferPointer<UInt8>, endingAt end: Int64, unquoted: Bool) throws {
        if !overlong && end - recordStart > Int64(maxLineBytes) { try startSkipping() }
        if overlong {
            if unquoted && fieldBlank && !bytes.allSatisfy({ $0 == Self.space || $0 == Self.tab }) { fieldBlank = false }
            return
        }
        record.bytes.append(contentsOf: bytes)
    }

    private mutating func keepByte(_ b: UInt8) {
        if !overlong { record.bytes.append(b) }
    }

    /// Drops what the record holds; from here on only its length and where it ends are followed.
    private mutating func startSkipping() throws {
        if (state == .quoted || state == .quotedQuote) && line > recordLine {
            throw CSVError.runawayQuote(line: recordLine, limit: maxLineBytes)
        }
        if state == .unquoted { fieldBlank = currentFieldIsBlank }
        overlong = true
        record.bytes.removeAll(keepingCapacity: true)
        record.ends.removeAll(keepingCapacity: true)
        fieldStart = 0
    }

    private mutating func countLineEnd(_ b: UInt8) {
        line += 1
        if b == Self.cr { afterCR = true }
    }

    private mutating func endField() {
        fieldWasQuoted = false
        fieldBlank = true
        if overlong { return }
        record.ends.append(record.bytes.count)
        fieldStart = record.bytes.count
    }

    /// Hands the record over; `end` is the input offset of the line break that ends it (or of the end of input).
    private mutating func endRecord(at end: Int64, _ body: (CSVRecord) throws -> Void) throws {
        let blank = !overlong && record.ends.isEmpty && record.bytes.isEmpty && !fieldWasQuoted
        endField()
        state = .fieldStart
        if !blank {
            record.line = recordLine
            record.overlongBytes = overlong ? end - recordStart : nil
            try body(record)
        }
        overlong = false
        record.bytes.removeAll(keepingCapacity: true)
        record.ends.removeAll(keepingCapacity: true)
        fieldStart = 0
        recordLine = line
        recordStart = end + 1
    }
}
