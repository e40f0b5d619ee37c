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

    public mutating func beginObject() {
        separator()
        byte(UInt8(ascii: "{"))
        needsComma = false
    }
    public mutating func endObject() {
        byte(UInt8(ascii: "}"))
        needsComma = true
    }
    public mutating func beginArray() {
        separator()
        byte(UInt8(ascii: "["))
        needsComma = false
    }
    public mutating func endArray() {
        byte(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes `"name":`; the value written next belongs to it.
    @inline(__always)
    public mutating func key(_ name: StaticString) {
        separator()
        byte(UInt8(ascii: "\""))
        append(name)
        append("\":")
        needsComma = false
    }

    /// Writes `"name":` for a name known only at run time (escaped as a string is).
    public mutating func key(text name: String) {
        string(name)
        byte(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) {
        separator()
        byte(UInt8(ascii: "\""))
        stringBody(value)
        byte(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Writes `"<value>#<suffix>"` without building that string (the ids of a split venue's extra circles).
    mutating func string(_ value: String, suffix: Int) {
        separator()
        byte(UInt8(ascii: "\""))
        stringBody(value)
        byte(UInt8(ascii: "#"))
        digits(Int64(suffix))
        byte(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Writes `text` as it is (a key with its quotes and colon, say, and the comma before it): the caller keeps the
    /// JSON well formed. The next value follows without a comma.
    @inline(__always)
    mutating func raw(_ text: StaticString) {
        append(text)
        needsComma = false
    }

    /// Marks that a value was just written by `raw`, so that the next key or element is preceded by a comma.
    @inline(__always)
    mutating func rawValueWritten() { needsComma = true }

    /// A string's characters, escaped, without the quotes.
    private mutating func stringBody(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            // Most strings need no escaping: one branch-free pass finds out, and they are copied whole.
            var special: UInt8 = 0
            for b in utf8 { special |= (b < 0x20 ? 1 : 0) | (b == UInt8(ascii: "\"") ? 1 : 0) | (b == UInt8(ascii: "\\") ? 1 : 0) }
            if special == 0 {
                append(utf8)
                return
            }
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
        let pairs = Self.digitPairText.utf8Start
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var n = 20
            // Two digits per division.
            while magnitude >= 10 {
                let pair = Int(magnitude % 100)
                magnitude /= 100
                n -= 2
                assert(n >= 0, "more than 20 digits")
                buffer[n] = pairs[2 * pair]
                buffer[n + 1] = pairs[2 * pair + 1]
            }
            if magnitude > 0 || n == 20 {
                n -= 1
                buffer[n] = UInt8(ascii: "0") + UInt8(magnitude)
            }
            append(UnsafeBufferPointer(rebasing: buffer[n...]))
        }
    }

    /// "00" through "99", two bytes each.
    private static let digitPairText: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Whole numbers without a fraction (`100`, as in the product document), others in the shortest
    /// form that reads back to the same Double; JSON has no NaN or infinity, so those become null.
    public mutating func number(_ value: Double) {
        guard value.isFinite else { return null() }
        separator()
        // Whole-number and rounding tests by conversion to Int64: `rounded()` is a libm call on baseline x86-64.
        if abs(value) < 9.0e15, Double(Int64(value)) == value {
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
        let product = magnitude * 1e9
        // Below 2⁵², adding ½ is exact, so truncating rounds half up, as `rounded()` does for positive numbers.
        guard product < 4.0e15 else { return false }
        let scaledInteger = Int64(product + 0.5)
        guard Double(scaledInteger) / 1e9 == magnitude else { return false }
        let fraction = scaledInteger % 1_000_000_000
        guard fraction != 0 else { return false }
        if value < 0 { byte(UInt8(ascii: "-")) }
        digits(scaledInteger / 1_000_000_000)
        byte(UInt8(ascii: "."))
        // All nine fraction digits, two at a time, then the trailing zeros taken back (the fraction is not 0).
        reserve(9)
        assert(count + 9 <= capacity, "fraction digits written past the buffer")
        let pairs = Self.digitPairText.utf8Start
        var rest = Int(fraction)
        for i in stride(from: 7, through: 1, by: -2) {
            let pair = rest % 100
            rest /= 100
            base[count + i] = pairs[2 * pair]
            base[count + i + 1] = pairs[2 * pair + 1]
        }
        base[count] = UInt8(ascii: "0") + UInt8(rest)
        var width = 9
        while base[count + width - 1] == UInt8(ascii: "0") { width -= 1 }
        count += width
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

    @inline(__always)
    private mutating func append(_ text: StaticString) {
        if text.hasPointerRepresentation {
            append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        } else {
            // A one-scalar literal may be stored as the scalar itself.
            text.withUTF8Buffer { append($0) }
        }
    }

    @inline(__always)
    private mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
        let n = source.count
        guard n > 0 else { return }
        reserve(n)
        assert(count + n <= capacity, "bytes appended past the buffer")
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
        assert(count < capacity, "a byte written past the buffer")
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
