import ChainImport
import FuzzSupport

// The encoding detector sees a file in reads of whatever size the disk gives, so its verdict must not depend on
// where the reads are cut: the same bytes scanned whole and scanned in small pieces (1–3 bytes mostly, which puts
// a boundary inside every multi-byte sequence sooner or later) must give the same encoding, validity and first
// invalid offset. Validity is also held to Swift's own UTF-8 validation, and every field decodes without a trap.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzDriver.bytes(data, size)
    var variation = InputVariation(bytes)
    let forced: TextEncoding? = variation.below(4) == 0 ? TextEncoding.allCases[variation.below(3)] : nil

    var whole = EncodingDetector(forced: forced)
    bytes.withUnsafeBufferPointer { whole.scan($0) }
    whole.finish()
    var pieces = EncodingDetector(forced: forced)
    for piece in bytes.pieces(variation.chunkSizes(total: bytes.count)) {
        piece.withUnsafeBufferPointer { pieces.scan($0) }
    }
    pieces.finish()

    let verdict = (whole.encoding, whole.isValidUTF8, whole.firstInvalidOffset)
    require(
        verdict == (pieces.encoding, pieces.isValidUTF8, pieces.firstInvalidOffset),
        "whole: \(verdict), in pieces: \((pieces.encoding, pieces.isValidUTF8, pieces.firstInvalidOffset)) for \(bytes)")
    let valid = bytes.withUnsafeBufferPointer { String(validating: $0, as: UTF8.self) } != nil
    require(whole.isValidUTF8 == valid, "detector says valid=\(whole.isValidUTF8), Swift says \(valid) for \(bytes)")
    if let offset = whole.firstInvalidOffset {
        let before = Array(bytes[..<Int(offset)])
        require(
            before.withUnsafeBufferPointer { String(validating: $0, as: UTF8.self) } != nil,
            "bytes before the first invalid offset \(offset) are not valid UTF-8: \(bytes)")
    }
    // Fields as the importer cuts them (at commas and line ends), decoded in file order.
    for field in bytes.split(whereSeparator: { $0 == 0x2C || $0 == 0x0A }) {
        let text = whole.decode(field)
        if forced == nil, whole.isValidUTF8 {
            require(Array(text.utf8) == Array(field), "a valid UTF-8 field decoded to other text: \(Array(field))")
        }
    }
    return 0
}

@main enum Main {
    static func main() { FuzzDriver.run(fuzzOneInput) }
}
