/// Many strings in one byte buffer: a few bytes of overhead per string instead of a heap object each,
/// which keeps a million-location index within its memory budget.
struct StringTable: Sendable {
    private(set) var bytes: [UInt8] = []
    private(set) var offsets: [UInt32] = [0]

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity * 24)
        offsets.reserveCapacity(capacity + 1)
    }

    mutating func append(_ string: String?) {
        if let string { bytes.append(contentsOf: string.utf8) }
        offsets.append(UInt32(bytes.count))
    }

    var count: Int { offsets.count - 1 }

    subscript(i: Int) -> String {
        let start = Int(offsets[i]), end = Int(offsets[i + 1])
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
    }

    /// nil for an empty entry.
    func optional(_ i: Int) -> String? { offsets[i] == offsets[i + 1] ? nil : self[i] }

    /// Byte-wise comparison of two entries (the order of `String` comparison for UTF-8 ASCII ids).
    func less(_ a: Int, _ b: Int) -> Bool {
        let sa = Int(offsets[a]), ea = Int(offsets[a + 1]), sb = Int(offsets[b]), eb = Int(offsets[b + 1])
        return bytes.withUnsafeBufferPointer { p in
            let n = min(ea - sa, eb - sb)
            for k in 0..<n where p[sa + k] != p[sb + k] { return p[sa + k] < p[sb + k] }
            return ea - sa < eb - sb
        }
    }

    var approximateBytes: Int { bytes.capacity + offsets.capacity * 4 }
}
