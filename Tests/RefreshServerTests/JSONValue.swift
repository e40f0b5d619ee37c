/// A JSON value as written on the wire: keeps "integer" (no fraction or exponent) apart from other
/// numbers and booleans apart from numbers, which Foundation's bridging blurs on Linux.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(Double, isInteger: Bool)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    subscript(key: String) -> JSONValue? {
        guard case .object(let o) = self else { return nil }
        return o[key]
    }

    var string: String? { if case .string(let s) = self { s } else { nil } }
    var double: Double? { if case .number(let d, _) = self { d } else { nil } }
    var int: Int? { if case .number(let d, true) = self { Int(d) } else { nil } }
    var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    var array: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    var object: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }

    struct ParseError: Error {}

    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        var p = Parser(bytes: bytes)
        let value = try p.value()
        p.skipSpace()
        guard p.i == bytes.count else { throw ParseError() }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var i = 0

        mutating func skipSpace() { while i < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 } }

        mutating func value() throws -> JSONValue {
            skipSpace()
            guard i < bytes.count else { throw ParseError() }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                var out: [String: JSONValue] = [:]
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                    i += 1
                    return .object(out)
                }
                while true {
                    skipSpace()
                    guard case .string(let key) = try value() else { throw ParseError() }
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw ParseError() }
                    i += 1
                    out[key] = try value()
                    skipSpace()
                    guard i < bytes.count else { throw ParseError() }
                    if bytes[i] == UInt8(ascii: ",") {
                        i += 1
                        continue
                    }
                    guard bytes[i] == UInt8(ascii: "}") else { throw ParseError() }
                    i += 1
                    return .object(out)
                }
            case UInt8(ascii: "["):
                i += 1
                var out: [JSONValue] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
                    i += 1
                    return .array(out)
                }
                while true {
                    out.append(try value())
                    skipSpace()
                    guard i < bytes.count else { throw ParseError() }
                    if bytes[i] == UInt8(ascii: ",") {
                        i += 1
                        continue
                    }
                    guard bytes[i] == UInt8(ascii: "]") else { throw ParseError() }
                    i += 1
                    return .array(out)
                }
            case UInt8(ascii: "\""):
                i += 1
                var out: [UInt8] = []
                while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
                    if bytes[i] == UInt8(ascii: "\\") {
                        i += 1
                        guard i < bytes.count else { throw ParseError() }
                        switch bytes[i] {
                        case UInt8(ascii: "n"): out.append(0x0A)
                        case UInt8(ascii: "t"): out.append(0x09)
                        case UInt8(ascii: "r"): out.append(0x0D)
                        case UInt8(ascii: "u"):
                            guard i + 4 < bytes.count, let code = UInt32(String(decoding: bytes[(i + 1)...(i + 4)], as: UTF8.self), radix: 16),
                                let scalar = Unicode.Scalar(code)
                            else { throw ParseError() }
                            out.append(contentsOf: Array(String(Character(scalar)).utf8))
                            i += 4
                        default: out.append(bytes[i])
                        }
                    } else {
                        out.append(bytes[i])
                    }
                    i += 1
                }
                guard i < bytes.count else { throw ParseError() }
                i += 1
                return .string(String(decoding: out, as: UTF8.self))
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default:
                let start = i
                while i < bytes.count, "+-0123456789.eE".utf8.contains(bytes[i]) { i += 1 }
                let text = String(decoding: bytes[start..<i], as: UTF8.self)
                guard let d = Double(text) else { throw ParseError() }
                return .number(d, isInteger: !text.contains(where: { ".eE".contains($0) }))
            }
        }

        mutating func literal(_ word: String, _ value: JSONValue) throws -> JSONValue {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else { throw ParseError() }
            i += w.count
            return value
        }
    }
}
