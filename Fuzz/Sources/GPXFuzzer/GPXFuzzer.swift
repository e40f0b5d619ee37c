import Foundation
import FuzzSupport
import TraceFuzzChecks
import TraceReplay

// GPXReader (Foundation's XMLParser over libxml2, plus OnCue's element handling) on any bytes: a trace or a
// `TraceReadError`, never a trap, a hang or a leak; a trace passes `checkTrace`.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzDriver.bytes(data, size)
    guard let raw = try? GPXReader.read(Data(bytes)) else { return 0 }
    checkTrace(raw, format: "gpx")
    return 0
}

@main enum Main {
    static func main() { FuzzDriver.run(fuzzOneInput) }
}
