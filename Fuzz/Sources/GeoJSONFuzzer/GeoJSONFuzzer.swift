import Foundation
import FuzzSupport
import TraceFuzzChecks
import TraceReplay

// GeoJSONTraceReader (JSONSerialization, then OnCue's walk of Feature/FeatureCollection/GeometryCollection with
// coordTimes/times) on any bytes: a trace or a `TraceReadError`, never a trap; a trace passes `checkTrace`.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzDriver.bytes(data, size)
    guard let raw = try? GeoJSONTraceReader.read(Data(bytes)) else { return 0 }
    checkTrace(raw, format: "geojson")
    return 0
}

@main enum Main {
    static func main() { FuzzDriver.run(fuzzOneInput) }
}
