import Foundation
import FuzzSupport
import LocationStore
import RegionRefresh

// The text rules of names and JSON members on any bytes: `NetworkText` (control, bidi and mixed-script checks, the
// TS #39 skeleton through ICU) answers without a trap, the same way twice, and a name it accepts has neither a control
// nor a bidi character; `JSONShape` on any JSON Foundation accepts names a member that is in the text, and finds
// none in a document that has no object with two members at all.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzDriver.bytes(data, size)
    let text = String(decoding: bytes, as: UTF8.self)
    let problem = NetworkText.problem(text)
    require(problem == NetworkText.problem(text), "NetworkText.problem is not deterministic for \(bytes)")
    if problem == nil {
        require(!NetworkText.hasBidiControl(text), "a name with a bidi control was accepted: \(bytes)")
        require(!text.unicodeScalars.contains { $0.value < 0x20 }, "a name with a control character was accepted: \(bytes)")
    }
    let skeleton = NetworkText.skeleton(text)
    require(skeleton == NetworkText.skeleton(text), "the skeleton is not deterministic for \(bytes)")
    require(NetworkText.lookAlike(of: text, among: [text]) == nil, "a name looks like itself: \(bytes)")

    let duplicate = bytes.withUnsafeBytes { JSONShape.firstDuplicate(in: $0) }
    if let duplicate, (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil {
        let last = duplicate.split(separator: ".").last.map(String.init) ?? duplicate
        let name = last.split(separator: "[").first.map(String.init) ?? last
        require(name.isEmpty || text.contains(name) || text.contains("\\u"), "reported member '\(duplicate)' is not in \(text)")
    }
    return 0
}

@main enum Main {
    static func main() { FuzzDriver.run(fuzzOneInput) }
}
