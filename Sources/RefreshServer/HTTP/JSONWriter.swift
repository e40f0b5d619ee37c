import NIOCore

/// Appends JSON to a byte buffer without reflection: the hot path's responses are written field by
/// field, several times faster than `JSONEncoder`, which builds an intermediate tree per response.
struct JSONWriter {
    private(set) var buffer: ByteBuffer
    private var needsComma = false

    init(capacity: Int = 1024) {
        buffer = ByteBufferAllocator().buffer(capacity: capacity)
    }

    mutating func beginObject() { separator(); buffer.writeInteger(UInt8(ascii: "{")); needsComma = false }
    mutating func endObject() { buffer.writeInteger(UInt8(ascii: "}")); needsComma = true }
    mutating func beginArray() { separator(); buffer.writeInteger(UInt8(ascii: "[")); needsComma = false }
    mutating func endArray() { buffer.writeInteger(UInt8(ascii: "]")); needsComma = true }

    /// Writes `"name":`; the value written next belongs to it.
    mutating func key(_ name: StaticString) {
        separator()
        buffer.writeInteger(UInt8(ascii: "\""))
        name.withUTF8Buffer { _ = buffer.writeBytes($0) }
        buffer.writeStaticString("\":")
        needsComma = false
    }

    /// Writes `"name":` for a key only known at run time (map keys).
    mutating func key(dynamic name: String) {
        string(name)
        buffer.writeInteger(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ value: String) {
        separator()
        buffer.writeInteger(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            var start = 0
            for i in 0..<bytes.count {
                let byte = bytes[i]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if start < i { buffer.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<i])) }
                switch byte {
                case UInt8(ascii: "\""): buffer.writeStaticString("\\\"")
                case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
                case UInt8(ascii: "\n"): buffer.writeStaticString("\\n")
                case UInt8(ascii: "\r"): buffer.writeStaticString("\\r")
                case UInt8(ascii: "\t"): buffer.writeStaticString("\\t")
                default:
                    buffer.writeStaticString("\\u00")
                    buffer.writeInteger(Self.hex[Int(byte >> 4)])
                    buffer.writeInteger(Self.hex[Int(byte & 0xF)])
                }
                start = i + 1
            }
            if start < bytes.count { buffer.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start...])) }
        }
        buffer.writeInteger(UInt8(ascii: "\""))
        needsComma = true
    }

    mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    mutating func int(_ value: Int) {
        separator()
        buffer.writeString(String(value))
        needsComma = true
    }

    /// Whole numbers without a fraction (`100`, as in the product document), others in the shortest
    /// form that reads back to the same Double; JSON has no NaN or infinity, so those become null.
    mutating func number(_ value: Double) {
        guard value.isFinite else { return null() }
        separator()
        if value == value.rounded(), abs(value) < 9.0e15 {
            buffer.writeString(String(Int64(value)))
        } else {
            buffer.writeString(value.description)
        }
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        separator()
        if value { buffer.writeStaticString("true") } else { buffer.writeStaticString("false") }
        needsComma = true
    }

    mutating func null() {
        separator()
        buffer.writeStaticString("null")
        needsComma = true
    }

    private mutating func separator() {
        if needsComma { buffer.writeInteger(UInt8(ascii: ",")) }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
}
