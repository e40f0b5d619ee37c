import ChainImport
import FuzzSupport

// The CSV tokenizer: reads cut anywhere give the same records and the same error as one read of the whole input;
// every record is well formed (ends ascending, the last at the byte count, lines ascending); and writing the
// records back out in canonical RFC 4180 (every field quoted, quotes doubled, CRLF) and reading that again gives
// the same fields, so the tokenizer neither loses nor invents data. Delimiter and line limit vary per input; a record
// past the limit comes out with no fields and its length, which must be over the limit, and nothing held beyond it.

private let delimiters: [UInt8] = [0x2C, 0x3B, 0x09, 0x7C]

private struct Outcome: Equatable {
    var records: [[UInt8]] = []
    var ends: [[Int]] = []
    var lines: [Int] = []
    var overlong: [Int64?] = []
    var error: CSVError?
}

private func tokenize(_ pieces: [[UInt8]], delimiter: UInt8, limit: Int) -> Outcome {
    var tokenizer = CSVTokenizer(delimiter: delimiter, maxLineBytes: limit)
    var out = Outcome()
    func take(_ record: CSVRecord) {
        out.records.append(record.bytes)
        out.ends.append(record.ends)
        out.lines.append(record.line)
        out.overlong.append(record.overlongBytes)
    }
    do {
        for piece in pieces { try piece.withUnsafeBufferPointer { try tokenizer.feed($0, take) } }
        try tokenizer.finish(take)
    } catch let error as CSVError {
        out.error = error
    } catch {
        require(false, "unexpected error \(error)")
    }
    return out
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzDriver.bytes(data, size)
    var variation = InputVariation(bytes)
    let delimiter = delimiters[variation.below(delimiters.count)]
    let limit = variation.coin() ? 1 << 20 : 1 + variation.below(64)
    let whole = tokenize([bytes], delimiter: delimiter, limit: limit)
    let cut = tokenize(bytes.pieces(variation.chunkSizes(total: bytes.count)), delimiter: delimiter, limit: limit)
    require(whole == cut, "reads cut differently disagree: whole \(whole), cut \(cut), input \(bytes)")

    var previousLine = 0
    for ((fields, ends), overlong) in zip(zip(whole.records, whole.ends), whole.overlong) {
        if let overlong {
            require(
                fields.isEmpty && ends.isEmpty && overlong > Int64(limit),
                "an overlong record of \(overlong) bytes (limit \(limit)) kept \(fields.count) bytes")
            continue
        }
        require(fields.count <= limit, "a record of \(fields.count) bytes passed the limit \(limit)")
        require(
            !ends.isEmpty && ends.last == fields.count && zip(ends, ends.dropFirst()).allSatisfy { $0 <= $1 },
            "malformed record: ends \(ends) over \(fields.count) bytes")
    }
    for line in whole.lines {
        require(line > previousLine, "record lines not ascending: \(whole.lines)")
        previousLine = line
    }
    // An overlong record cannot be written back (its bytes were not kept), so the round trip needs none.
    guard whole.error == nil, whole.overlong.allSatisfy({ $0 == nil }) else { return 0 }

    // Canonical form: every field quoted, so delimiters, quotes and line breaks inside fields survive.
    var canonical: [UInt8] = []
    for (fields, ends) in zip(whole.records, whole.ends) {
        var start = 0
        for (k, end) in ends.enumerated() {
            if k > 0 { canonical.append(delimiter) }
            canonical.append(0x22)
            for b in fields[start..<end] {
                if b == 0x22 { canonical.append(0x22) }
                canonical.append(b)
            }
            canonical.append(0x22)
            start = end
        }
        canonical += [0x0D, 0x0A]
    }
    let again = tokenize([canonical], delimiter: delimiter, limit: Int.max)
    require(
        again.error == nil && again.records == whole.records && again.ends == whole.ends,
        "canonical re-read differs: \(again) vs \(whole) from input \(bytes)")
    return 0
}

@main enum Main {
    static func main() { FuzzDriver.run(fuzzOneInput) }
}
