/// Decides, while the bytes stream past, whether a file is UTF-8 or a Windows-1252/Latin-1 file,
/// and decodes fields accordingly so that no mojibake is ever produced.
///
/// The raw bytes are validated as UTF-8 chunk by chunk (a sequence may straddle chunks). A field
/// that is ASCII decodes the same in every candidate encoding; a field with other bytes is decoded
/// as UTF-8 if it is valid UTF-8 and the file has not yet proved otherwise, else as Windows-1252.
/// A forced encoding skips the guessing.
public struct EncodingDetector: Sendable {
    public let forced: TextEncoding?
    /// False once any byte sequence of the file is not UTF-8.
    public private(set) var isValidUTF8 = true
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
        if isValidUTF8 { return .utf8 }
        return sawC1Byte ? .windows1252 : .latin1
    }

    /// Fields were decoded as UTF-8 before the file turned out not to be UTF-8.
    public var isMixed: Bool { forced == nil && !isValidUTF8 && decodedMultibyteUTF8 }

    public mutating func scan(_ chunk: UnsafeBufferPointer<UInt8>) {
        defer { offset += Int64(chunk.count) }
        guard isValidUTF8 || !sawC1Byte else { return }
        var i = 0
        let n = chunk.count
        if !pending.isEmpty {
            // Complete the sequence that straddles the chunk boundary, then validate it alone.
            let length = pending[0] >= 0xF0 ? 4 : pending[0] >= 0xE0 ? 3 : 2
            while pending.count < length && i < n { pending.append(chunk[i]); i += 1 }
            guard pending.count == length else { return }
            let sequence = pending
            pending = []
            _ = sequence.withUnsafeBufferPointer { validate($0, base: offset, final: true) }
        }
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
            i += validate(rest, base: offset + Int64(i), final: false)
        }
    }

    /// Validates from the first non-ASCII byte: returns how many bytes it consumed; keeps an
    /// incomplete trailing sequence in `pending`.
    private mutating func validate(_ bytes: UnsafeBufferPointer<UInt8>, base: Int64, final: Bool) -> Int {
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
            if need < 0 { markInvalid(base + Int64(i)); i += 1; continue }
            if i + need >= n {
                if !final { pending = Array(bytes[i...]); return n }
                markInvalid(base + Int64(i))
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
            if ok { i += need + 1 } else { markInvalid(base + Int64(i)); i += 1 }
        }
        return n
    }

    private mutating func markInvalid(_ at: Int64) {
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
            for b in bytes where b >= 0x80 { ascii = false; break }
            if ascii { return String(decoding: bytes, as: UTF8.self) }
            if let forced {
                return forced.decode(bytes) ?? Windows1252.decode(bytes)
            }
            if isValidUTF8, let text = String(validating: bytes, as: UTF8.self) {
                decodedMultibyteUTF8 = true
                return text
            }
            decodedSingleByte = true
            return Windows1252.decode(bytes)
        }
    }
}
