/// Decides, while the bytes stream past, whether a file is UTF-8 or a Windows-1252/Latin-1 file,
/// and decodes fields accordingly so that no mojibake is ever produced.
///
/// The raw bytes are validated as UTF-8 chunk by chunk (a sequence may straddle chunks), counting valid multibyte
/// sequences and invalid ones. A field that is ASCII decodes the same in every candidate encoding. A file with at
/// least as many valid multibyte sequences as invalid ones is UTF-8 with a few bad bytes: its fields decode as UTF-8,
/// bad bytes become U+FFFD and the field is marked (`takeReplaced`) so that its row can be warned. A file whose
/// non-ASCII bytes are mostly not UTF-8 is Windows-1252 (Latin-1 without bytes 0x80–0x9F). Each field is decoded with
/// what the bytes read so far say, which for a file read in 1 MiB chunks is every byte up to the end of the field's
/// chunk: a stray byte near the end of a small file no longer turns its earlier rows into mojibake.
/// A forced encoding skips the guessing (forced UTF-8 still replaces bad bytes, never reads them as Windows-1252).
public struct EncodingDetector: Sendable {
    public let forced: TextEncoding?
    /// False once any byte sequence of the file is not UTF-8.
    public private(set) var isValidUTF8 = true
    /// Well-formed multibyte UTF-8 sequences seen, and bytes that are not UTF-8.
    public private(set) var validSequences = 0
    public private(set) var invalidSequences = 0
    /// A field decoded since the last `takeReplaced()` had bytes replaced with U+FFFD.
    private var replaced = false
    /// Bytes 0x80–0x9F seen: Windows-1252 punctuation (en dash, curly quotes) rather than Latin-1.
    private var sawC1Byte = false
    /// A field with non-ASCII bytes was decoded as UTF-8 (needed to notice a mixed file).
    public private(set) var decodedMultibyteUTF8 = false
    public private(set) var decodedSingleByte = false
    /// Bytes of an unfinished UTF-8 sequence at the end of the previous chunk.
    private var pending: [UInt8] = []
    /// Offset in the file of the first byte that is not UTF-8, for the report.
    public private(set) var firstInvalidOffset: Int64?
    private var offset: Int64 = 0

    public init(forced: TextEncoding? = nil) {
        self.forced = forced
    }

    /// The encoding the file was read in, as reported to the user.
    public var encoding: TextEncoding {
        if let forced { return forced }
        return looksUTF8 ? .utf8 : singleByteEncoding
    }

    /// UTF-8, perhaps with a few bad bytes: no invalid byte, or at least as many valid multibyte sequences as invalid
    /// ones (Windows-1252 text rarely forms a valid sequence: a capital with an accent followed by a C1 or symbol byte).
    package var looksUTF8: Bool { isValidUTF8 || (validSequences > 0 && validSequences >= invalidSequences) }

    private var singleByteEncoding: TextEncoding { sawC1Byte ? .windows1252 : .latin1 }

    /// Some fields were decoded as UTF-8 and others as a single-byte encoding (a file pasted together from two).
    package var isMixed: Bool { forced == nil && decodedMultibyteUTF8 && decodedSingleByte }

    /// How the report names the encoding.
    package var reportedName: String {
        isMixed ? "mixed utf-8/\(singleByteEncoding.rawValue)" : encoding.rawValue
    }

    /// Whether a field decoded since the last call had bytes that are not UTF-8 replaced with U+FFFD; resets.
    package mutating func takeReplaced() -> Bool {
        defer { replaced = false }
        return replaced
    }

    public mutating func scan(_ chunk: UnsafeBufferPointer<UInt8>) {
        defer { offset += Int64(chunk.count) }
        guard !pending.isEmpty else { return scanBytes(chunk, base: offset) }
        // The last read ended inside a sequence: scan its start and this read as one buffer, exactly as if the file
        // had been read in one piece (a boundary inside a sequence happens about once per read, and costs one copy).
        var joined = pending
        pending = []
        joined.append(contentsOf: chunk)
        let base = offset - Int64(joined.count - chunk.count)
        joined.withUnsafeBufferPointer { scanBytes($0, base: base) }
    }

    private mutating func scanBytes(_ chunk: UnsafeBufferPointer<UInt8>, base: Int64) {
        var i = 0
        let n = chunk.count
        while i < n {
            // ASCII fast path, 8 bytes at a time.
            while i + 8 <= n {
                let word = UnsafeRawPointer(chunk.baseAddress! + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                i += 8
            }
            while i < n && chunk[i] < 0x80 { i += 1 }
            guard i < n else { break }
            let rest = UnsafeBufferPointer(rebasing: chunk[i...])
            i += validate(rest, base: base + Int64(i))
        }
    }

    /// Validates from the first non-ASCII byte: returns how many bytes it consumed; keeps an
    /// incomplete trailing sequence in `pending`.
    private mutating func validate(_ bytes: UnsafeBufferPointer<UInt8>, base: Int64) -> Int {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 { return i }
            if (0x80...0x9F).contains(b) { sawC1Byte = true }
            let need: Int
            switch b {
            case 0xC2...0xDF: need = 1
            case 0xE0...0xEF: need = 2
            case 0xF0...0xF4: need = 3
            default: need = -1
            }
            if need < 0 {
                markInvalid(base + Int64(i))
                i += 1
                continue
            }
            if i + need >= n {
                pending = Array(bytes[i...])  // completed by the next read, or not UTF-8 at the end (finish)
                return n
            }
            var ok = true
            for k in 1...need where !(0x80...0xBF).contains(bytes[i + k]) { ok = false }
            if ok && need == 2 {
                let b1 = bytes[i + 1]
                if (b == 0xE0 && b1 < 0xA0) || (b == 0xED && b1 > 0x9F) { ok = false }
            } else if ok && need == 3 {
                let b1 = bytes[i + 1]
                if (b == 0xF0 && b1 < 0x90) || (b == 0xF4 && b1 > 0x8F) { ok = false }
            }
            if ok {
                validSequences += 1
                i += need + 1
            } else {
                markInvalid(base + Int64(i))
                i += 1
            }
        }
        return n
    }

    private mutating func markInvalid(_ at: Int64) {
        invalidSequences += 1
        if isValidUTF8 { firstInvalidOffset = at }
        isValidUTF8 = false
    }

    /// Call at the end of the input: a sequence cut off by the end of file is not UTF-8.
    public mutating func finish() {
        if !pending.isEmpty {
            markInvalid(offset - Int64(pending.count))
            for b in pending where (0x80...0x9F).contains(b) { sawC1Byte = true }
            pending = []
        }
    }

    /// Decodes one field's bytes to text; trims nothing.
    public mutating func decode(_ field: ArraySlice<UInt8>) -> String {
        field.withUnsafeBufferPointer { bytes in
            var ascii = true
            for b in bytes where b >= 0x80 {
                ascii = false
                break
            }
            if ascii { return String(decoding: bytes, as: UTF8.self) }
            switch forced {
            case .windows1252?, .latin1?:
                return Windows1252.decode(bytes)
            case .utf8?:
                return decodeUTF8(bytes)
            case nil:
                guard looksUTF8 else {
                    decodedSingleByte = true
                    return Windows1252.decode(bytes)
                }
                decodedMultibyteUTF8 = true
                return decodeUTF8(bytes)
            }
        }
    }

    private mutating func decodeUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        replaced = true
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `bytes` are well-formed UTF-8 (for `--strict-utf8`).
    static func isUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { String(validating: $0, as: UTF8.self) != nil }
    }
}
