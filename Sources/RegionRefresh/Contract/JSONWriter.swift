/// Appends JSON to a growable byte buffer without reflection: the hot path's responses are written field by
/// field, several times faster than `JSONEncoder`, which builds an intermediate tree per response.
/// The buffer is the writer's own memory rather than a `[UInt8]`: a response is a few hundred short
/// appends, and `Array.append(contentsOf:)` costs a uniqueness check and a `memmove` call each, which
/// was measured at half of the time a response took to write.
public struct JSONWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    private var needsComma = false

    public init(capacity: Int = 1024) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The JSON written so far.
    public var bytes: [UInt8] { Array(written) }

    /// The JSON written so far, without a copy; valid while the writer is not changed.
    public var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    public mutating func beginObject() { separator(); byte(UInt8(ascii: "{")); needsComma = false }
    public mutating func endObject() { byte(UInt8(ascii: "}")); needsComma = true }
    public mutating func beginArray() { separator(); byte(UInt8(ascii: "[")); needsComma = false }
    public mutating func endArray() { byte(UInt8(ascii: "]")); needsComma = true }

    /// Writes `"name":`; the value written next belongs to it.
    public mutating func key(_ name: StaticString) {
        separator()
        byte(UInt8(ascii: "\""))
        append(name)
        append("\":")
        needsComma = false
    }

    public mutating func string(_ value: String) {
        separator()
        byte(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for i in 0..<utf8.count {
                let b = utf8[i]
                guard b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") else { continue }
                if start < i { append(UnsafeBufferPointer(rebasing: utf8[start..<i])) }
                switch b {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case UInt8(ascii: "\n"): append("\\n")
                case UInt8(ascii: "\r"): append("\\r")
                case UInt8(ascii: "\t"): append("\\t")
                default:
                    append("\\u00")
                    byte(Self.hex(b >> 4))
                    byte(Self.hex(b & 0xF))
                }
                start = i + 1
            }
            if start < utf8.count { append(UnsafeBufferPointer(rebasing: utf8[start...])) }
        }
        byte(UInt8(ascii: "\""))
        needsComma = true
    }

    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    public mutating func int(_ value: Int) {
        separator()
        digits(Int64(value))
        needsComma = true
    }

    /// Decimal digits of an integer, written straight into the bytes (no intermediate String).
    private mutating func digits(_ value: Int64) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var n = 20
            repeat {
                n -= 1
                buffer[n] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            append(UnsafeBufferPointer(rebasing: buffer[n...]))
        }
    }

    /// Whole numbers without a fraction (`100`, as in the product document), others in the shortest
    /// form that reads back to the same Double; JSON has no NaN or infinity, so those become null.
    public mutating func number(_ value: Double) {
        guard value.isFinite else { return null() }
        separator()
        if value == value.rounded(), abs(value) < 9.0e15 {
            digits(Int64(value))
        } else if !shortDecimal(value) {
            var text = value.description
            text.withUTF8 { append($0) }
        }
        needsComma = true
    }

    /// Writes `value` with the fewest fraction digits (at most 9) that read back to exactly `value`, without the
    /// String that `description` allocates: coordinates are most of a response's numbers. `M / 10⁹` is correctly
    /// rounded, as is a JSON reader's parse of "M e-9", so both give the Double nearest to that decimal: when the
    /// first equals `value`, so does the second; dropping M's trailing zeros keeps the decimal, and so the Double.
    /// Returns false (nothing written) when no such decimal exists.
    private mutating func shortDecimal(_ value: Double) -> Bool {
        let magnitude = abs(value)
        let scaled = (magnitude * 1e9).rounded()
        guard scaled < 9.0e15, scaled / 1e9 == magnitude else { return false }
        var fraction = Int64(scaled) % 1_000_000_000
        var width = 9
        while fraction % 10 == 0 && width > 0 {
            fraction /= 10
            width -= 1
        }
        guard width > 0 else { return false }
        if value < 0 { byte(UInt8(ascii: "-")) }
        digits(Int64(scaled) / 1_000_000_000)
        byte(UInt8(ascii: "."))
        // The fraction's leading zeros, then its digits.
        var rest = fraction
        while rest > 0 {
            rest /= 10
            width -= 1
        }
        for _ in 0..<width { byte(UInt8(ascii: "0")) }
        digits(fraction)
        return true
    }

    public mutating func bool(_ value: Bool) {
        separator()
        if value { append("true") } else { append("false") }
        needsComma = true
    }

    public mutating func null() {
        separator()
        append("null")
        needsComma = true
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    @inline(__always)
    private mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
        let n = source.count
        guard n > 0 else { return }
        reserve(n)
        // Most pieces are a few bytes: a plain loop beats a call to memcpy for those.
        if n <= 16 {
            for i in 0..<n { base[count + i] = source[i] }
        } else {
            (base + count).update(from: source.baseAddress!, count: n)
        }
        count += n
    }

    @inline(__always)
    private mutating func byte(_ value: UInt8) {
        reserve(1)
        base[count] = value
        count += 1
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    private mutating func separator() {
        if needsComma { byte(UInt8(ascii: ",")) }
    }

    private static func hex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
