import Foundation
import FuzzSupport
import OnCueContract
@_spi(Decoders) import RegionRefresh

// Differential: the fast region-refresh body reader against the reference, JSONDecoder through the Codable
// conformance. The fast reader may decline any body (nil: `decode(jsonBytes:)` then asks JSONDecoder, so the
// answer is the reference's by construction). What it must never do is take a body and give an answer the
// reference does not give: a different request, or a request where the reference refuses the body. There is no
// documented exception: RequestFastParser promises to accept "only what it fully understands", so every such
// body is a bug in the fast reader. Accepted bodies also go through `validated()`, the next thing the server does.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzDriver.bytes(data, size)
    let fast = bytes.withUnsafeBytes { RegionRefreshRequest.fastDecodeOnly($0) }
    let reference = Result { () throws(RegionRefreshError) in try RegionRefreshRequest.referenceDecodeOnly(Data(bytes)) }
    if let fast {
        require(
            reference == .success(fast),
            "fast reader took \(String(decoding: bytes, as: UTF8.self).debugDescription) as \(fast); reference: \(reference)")
    }
    let served = bytes.withUnsafeBytes { raw in Result { () throws(RegionRefreshError) in try RegionRefreshRequest.decode(jsonBytes: raw) } }
    require(served == reference, "decode(jsonBytes:) gave \(served), reference \(reference)")
    if case .success(let request) = reference { _ = try? request.validated() }
    return 0
}

@main enum Main {
    static func main() { FuzzDriver.run(fuzzOneInput) }
}
