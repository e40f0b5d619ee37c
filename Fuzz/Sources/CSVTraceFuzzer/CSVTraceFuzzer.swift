import FuzzSupport
import TraceFuzzChecks
import TraceReplay

// CSVTraceReader on any text with a column mapping that varies per input (header or not, separator, time format,
// columns by name or index): rows or a `TraceReadError` for a bad mapping, never a trap; the trace passes
// `checkTrace`.

private let separators: [String?] = [nil, nil, ",", ";", "\\t"]
private let timeFormats = ["auto", "auto", "iso", "seconds", "milliseconds"]
private let columns: [String?] = [nil, nil, nil, "0", "1", "2", "3", "lat", "lon", "time", "x"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzDriver.bytes(data, size)
    var variation = InputVariation(bytes)
    var mapping = CSVMapping(
        separator: separators[variation.below(separators.count)],
        timeFormat: timeFormats[variation.below(timeFormats.count)], hasHeader: variation.below(4) != 0)
    if variation.below(3) == 0 {
        mapping.latitude = columns[variation.below(columns.count)]
        mapping.longitude = columns[variation.below(columns.count)]
        mapping.time = columns[variation.below(columns.count)]
        mapping.accuracy = columns[variation.below(columns.count)]
    }
    let text = String(decoding: bytes, as: UTF8.self)
    guard let raw = try? CSVTraceReader.read(text, mapping: mapping) else { return 0 }
    checkTrace(raw, format: "csv")
    // Split by a trajectory column: every track is a trace of its own, and together they hold the rows of the whole.
    if variation.below(2) == 0 { mapping.track = columns[variation.below(columns.count)] }
    guard let tracks = try? CSVTraceReader.readTracks(text, mapping: mapping) else { return 0 }
    for track in tracks { checkTrace(track.trace, format: "csv") }
    var whole = mapping
    whole.track = nil
    if let all = try? CSVTraceReader.read(text, mapping: whole) {
        require(tracks.reduce(0) { $0 + $1.trace.fixes.count } == all.fixes.count, "the tracks hold other rows than the file")
    }
    return 0
}

@main enum Main {
    static func main() { FuzzDriver.run(fuzzOneInput) }
}
