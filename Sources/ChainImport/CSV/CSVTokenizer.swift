/// A streaming RFC 4180 tokenizer over bytes.
///
/// Feed it chunks of any size (a record may straddle chunks), then call `finish()`. It accepts
/// quoted fields with delimiters, doubled quotes and line breaks; CRLF, LF and lone CR line ends;
/// a missing final line break; blank lines (skipped). Leniencies, as in the files admins actually
/// get: a quote inside an unquoted field is kept literally, spaces before an opening quote and
/// after a closing quote are dropped. It works on bytes, so it is correct for UTF-8 and for the
/// single-byte encodings whose ASCII range is ASCII (Windows-1252, Latin-1); decoding happens per field.
public struct CSVTokenizer: Sendable {
    public let delimiter: UInt8
    /// A field longer than this throws `CSVError.fieldTooLong`, which keeps memory bounded when a
    /// stray quote would otherwise make the rest of the file one field.
    public var maxFieldBytes: Int

    private var record = CSVRecord()
    private var state = State.fieldStart
    private var line = 1
    private var recordLine = 1
    private var afterCR = false
    private var fieldStart = 0
    private var fieldWasQuoted = false

    private enum State { case fieldStart, unquoted, quoted, quotedQuote }

    private static let quote = UInt8(ascii: "\"")
    private static let cr = UInt8(ascii: "\r")
    private static let lf = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")

    public init(delimiter: UInt8 = UInt8(ascii: ","), maxFieldBytes: Int = 1 << 20) {
        self.delimiter = delimiter
        self.maxFieldBytes = maxFieldBytes
        record.bytes.reserveCapacity(4096)
        record.ends.reserveCapacity(64)
    }

    /// The physical line the tokenizer has reached (1-based).
    public var currentLine: Int { line }

    /// Tokenizes `chunk`, calling `body` for every complete record.
    public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ body: (CSVRecord) throws -> Void) throws {
        let n = chunk.count
        let delimiter = self.delimiter
        var i = 0
        while i < n {
            let b = chunk[i]
            let wasCR = afterCR
            afterCR = false
            switch state {
            case .fieldStart:
                if b == Self.quote {
                    state = .quoted
                    fieldWasQuoted = true
                    i += 1
                } else if b == delimiter {
                    endField()
                    i += 1
                } else if b == Self.lf || b == Self.cr {
                    if b == Self.lf && wasCR { i += 1; continue }   // the LF of a CRLF that already ended the record
                    countLineEnd(b)
                    try endRecord(body)
                    i += 1
                } else {
                    state = .unquoted
                }
            case .unquoted:
                var j = i
                while j < n {
                    let c = chunk[j]
                    if c == delimiter || c == Self.quote || c == Self.cr || c == Self.lf { break }
                    j += 1
                }
                if j > i { record.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[i..<j])) }
                i = j
                guard i < n else { break }
                let c = chunk[i]
                if c == delimiter {
                    endField()
                    state = .fieldStart
                } else if c == Self.quote {
                    if record.bytes[fieldStart...].allSatisfy({ $0 == Self.space || $0 == Self.tab }) {
                        record.bytes.removeSubrange(fieldStart...)   // `a, "b"`: the quote opens the field
                        state = .quoted
                        fieldWasQuoted = true
                    } else {
                        record.bytes.append(c)   // `5'6"`: a literal quote inside an unquoted field
                    }
                } else {
                    countLineEnd(c)
                    try endRecord(body)
                }
                i += 1
            case .quoted:
                var j = i
                while j < n {
                    let c = chunk[j]
                    if c == Self.quote || c == Self.cr || c == Self.lf { break }
                    j += 1
                }
                if j > i { record.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[i..<j])) }
                if record.bytes.count - fieldStart > maxFieldBytes { throw CSVError.fieldTooLong(line: recordLine, limit: maxFieldBytes) }
                i = j
                guard i < n else { break }
                let c = chunk[i]
                if c == Self.quote {
                    state = .quotedQuote
                } else {
                    // A line break inside quotes is data; it still advances the physical line count.
                    if !(c == Self.lf && wasCR && j == i) { countLineEnd(c) }
                    record.bytes.append(c)
                }
                i += 1
            case .quotedQuote:
                if b == Self.quote {
                    record.bytes.append(b)
                    state = .quoted
                } else if b == delimiter {
                    endField()
                    state = .fieldStart
                } else if b == Self.cr || b == Self.lf {
                    countLineEnd(b)
                    try endRecord(body)
                } else if b == Self.space || b == Self.tab {
                    // `"abc"  ,`: spaces after the closing quote are padding
                } else {
                    record.bytes.append(b)   // `"abc"def`: keep the text rather than lose it
                    state = .unquoted
                }
                i += 1
            }
        }
    }

    /// Ends the input: emits a last record that has no line break after it.
    public mutating func finish(_ body: (CSVRecord) throws -> Void) throws {
        if state == .quoted { throw CSVError.unterminatedQuote(line: recordLine) }
        if state != .fieldStart || !record.ends.isEmpty {
            try endRecord(body)
        }
    }

    /// Tokenizes a whole in-memory text; for tests and small inputs.
    public static func records(_ bytes: [UInt8], delimiter: UInt8 = UInt8(ascii: ",")) throws -> [CSVRecord] {
        var tokenizer = CSVTokenizer(delimiter: delimiter)
        var out: [CSVRecord] = []
        try bytes.withUnsafeBufferPointer { try tokenizer.feed($0) { out.append($0) } }
        try tokenizer.finish { out.append($0) }
        return out
    }

    private mutating func countLineEnd(_ b: UInt8) {
        line += 1
        if b == Self.cr { afterCR = true }
    }

    private mutating func endField() {
        record.ends.append(record.bytes.count)
        fieldStart = record.bytes.count
        fieldWasQuoted = false
    }

    private mutating func endRecord(_ body: (CSVRecord) throws -> Void) throws {
        let blank = record.ends.isEmpty && record.bytes.isEmpty && !fieldWasQuoted
        endField()
        state = .fieldStart
        if !blank {
            record.line = recordLine
            try body(record)
        }
        record.bytes.removeAll(keepingCapacity: true)
        record.ends.removeAll(keepingCapacity: true)
        fieldStart = 0
        recordLine = line
    }
}
