import FuzzSupport
import TraceFuzzChecks
import TraceReplay

// PLTReader (GeoLife: six header lines, then lat,lon,0,altitude,days,date,time) and its labels.txt reader on any
// text, decoded as TraceLoader does for valid UTF-8; the labels, read from the same text, go into cleaning too.
// Never a trap; the trace passes `checkTrace`.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: FuzzDriver.bytes(data, size), as: UTF8.self)
    var raw = PLTReader.read(text)
    raw.labels = PLTReader.readLabels(text)
    checkTrace(raw, format: "plt")
    return 0
}

@main enum Main {
    static func main() { FuzzDriver.run(fuzzOneInput) }
}
