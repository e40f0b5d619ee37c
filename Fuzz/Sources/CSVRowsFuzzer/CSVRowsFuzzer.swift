@_spi(ParseTrace) import ChainImport
import FuzzSupport

// The row side of an import (RowParser: byte-order mark, delimiter detection, encoding, header mapping, field
// decoding, coordinate checks, the coarse-grid decision that holds the first rows back; then RowInterpreter.place)
// on any bytes: it must not trap, and what it decides must not depend on how the file was cut into reads or how
// rows were batched. The whole input in one read with the default batch is the reference; the same input in
// small reads with tiny batches must give the same headers, rows, placements, end-of-file facts and error. The
// parser's block size (the unit its encoding decisions are taken on) varies per input and is the same for both.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzDriver.bytes(data, size)
    var variation = InputVariation(bytes)
    let delimiters: [UInt8?] = [nil, nil, nil, 0x2C, 0x3B, 0x09, 0x7C]
    let encodings: [TextEncoding?] = [nil, nil, .utf8, .windows1252]
    var knobs = ImportParseTrace.Knobs(
        fixedNetwork: variation.below(4) != 0, fixCoordinates: variation.coin(),
        encoding: encodings[variation.below(encodings.count)],
        delimiter: delimiters[variation.below(delimiters.count)],
        maxLineBytes: variation.below(4) == 0 ? 256 + variation.below(256) : 1 << 20,
        strictUTF8: variation.below(8) == 0,
        blockSize: variation.coin() ? 1 << 20 : 1 + variation.below(64))
    let whole = ImportParseTrace.parse([bytes], knobs: knobs)
    knobs.batchSize = 1 + variation.below(3)
    let cut = ImportParseTrace.parse(bytes.pieces(variation.chunkSizes(total: bytes.count)), knobs: knobs)
    if whole != cut {
        let k = zip(whole, cut).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(whole.count, cut.count)
        require(
            false,
            "reads cut differently disagree at event \(k):\n whole: \(k < whole.count ? whole[k] : "-")\n cut:   \(k < cut.count ? cut[k] : "-")")
    }
    return 0
}

@main enum Main {
    static func main() {
        // A lone row at sea builds the gazetteer's tables (PlacementCheck asks whether anyone lives there), seconds
        // under AddressSanitizer in a debug build; built here, before libFuzzer's clock, no input pays for them.
        _ = ImportParseTrace.parse([Array("lat,lon\n-30,-100\n".utf8)], knobs: ImportParseTrace.Knobs())
        FuzzDriver.run(fuzzOneInput)
    }
}
