/// Reads one GeoJSON feature's JSON text (RFC 8259) into a `JSONValue`.
///
/// Written for the import rather than taken from Foundation: `JSONSerialization` builds Foundation objects that are
/// then cast back to Swift values, which made parsing a feature most of a GeoJSON import's time (a 1M-feature load
/// took 1.5 times as long as the same rows as CSV), `JSONDecoder` measured twice as slow again for values whose type
/// is not known beforehand (properties), and Foundation's numbers are not exact (`-54.73857593999442` read as
/// -54.738575939994426, `-0.0` as 0), where this reader gives the double nearest the text. The grammar is RFC 8259's,
/// with Foundation's one leniency kept so that no file it read is refused now: a comma before a closing bracket or
/// brace. Nesting is bounded (`maxDepth`) so that no input can exhaust the stack. JSONReaderTests holds it to
/// Foundation's answers on generated and mutated texts.
struct JSONReader {
    struct Failure: Error {
        let message: String
    }

    /// The parsed value, and the first number written with an exponent so small that it reads as 0 (`1e-400`),
    /// which the import refuses rather than take as 0. A number too large for a double (`2e400`) is refused as
    /// Foundation refuses it, as no JSON.
    struct Parsed {
        let value: JSONValue
        let unrepresentable: String?
    }

    static let maxDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var at = 0
    private var unrepresentable: String?

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    static func parse(_ bytes: [UInt8]) throws(Failure) -> Parsed {
        let result: Result<Parsed, Failure> = bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            do throws(Failure) {
                reader.skipWhitespace()
                let value = try reader.value(depth: 0)
                reader.skipWhitespace()
                guard reader.at == buffer.count else { throw reader.failure("text after the JSON value") }
                return .success(Parsed(value: value, unrepresentable: reader.unrepresentable))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    // MARK: Values

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard at < bytes.count else { throw failure("unexpected end of the text") }
        switch bytes[at] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("no JSON value")
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maxDepth else { throw failure("more than \(Self.maxDepth) nested arrays or objects") }
        at += 1
        var members: [(name: String, value: JSONValue)] = []
        skipWhitespace()
        while try !closes(UInt8(ascii: "}")) {
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw failure("an object member without a quoted name") }
            let name = try string()
            skipWhitespace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw failure("no ':' after a member's name") }
            at += 1
            skipWhitespace()
            members.append((name, try value(depth: depth)))
            try separator(closing: UInt8(ascii: "}"))
        }
        return .object(members)
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maxDepth else { throw failure("more than \(Self.maxDepth) nested arrays or objects") }
        at += 1
        var elements = PackedElements()
        skipWhitespace()
        while try !closes(UInt8(ascii: "]")) {
            elements.append(try value(depth: depth))
            try separator(closing: UInt8(ascii: "]"))
        }
        return elements.value
    }

    /// An array's elements as they are read: packed while they are numbers (a position) or positions of one length
    /// (a ring), a value each once one is neither (`JSONValue`).
    private struct PackedElements {
        private enum Kind {
            case empty, numbers
            case positions(dimension: Int)
            case values
        }

        private var kind = Kind.empty
        private var packed: [Double] = []
        private var values: [JSONValue] = []

        mutating func append(_ element: JSONValue) {
            switch (kind, element) {
            case (.empty, .number(let value, nil)), (.numbers, .number(let value, nil)):
                kind = .numbers
                packed.append(value)
            case (.empty, .numbers(let position)) where !position.isEmpty:
                kind = .positions(dimension: position.count)
                packed += position
            case (.positions(let dimension), .numbers(let position)) where position.count == dimension:
                packed += position
            default:
                if case .values = kind {
                } else {
                    values = self.value.array ?? []
                    packed = []
                    kind = .values
                }
                values.append(element)
            }
        }

        var value: JSONValue {
            switch kind {
            case .empty: .array([])
            case .numbers: .numbers(packed)
            case .positions(let dimension): .positions(packed, dimension: dimension)
            case .values: .array(values)
            }
        }
    }

    /// Whether the container ends here (and steps past its closing bracket).
    private mutating func closes(_ bracket: UInt8) throws(Failure) -> Bool {
        guard at < bytes.count else { throw failure("unexpected end of the text") }
        guard bytes[at] == bracket else { return false }
        at += 1
        return true
    }

    /// After an element: a comma (and whitespace), or the closing bracket, which is left for `closes`.
    private mutating func separator(closing bracket: UInt8) throws(Failure) {
        skipWhitespace()
        guard at < bytes.count else { throw failure("unexpected end of the text") }
        if bytes[at] == UInt8(ascii: ",") {
            at += 1
            skipWhitespace()
        } else if bytes[at] != bracket {
            throw failure("no ',' or '\(Character(Unicode.Scalar(bracket)))' after an element")
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard at + count <= bytes.count,
            word.withUTF8Buffer({ expected in (0..<count).allSatisfy { bytes[at + $0] == expected[$0] } })
        else { throw failure("no JSON value") }
        at += count
        return value
    }

    // MARK: Numbers

    private mutating func number() throws(Failure) -> JSONValue {
        let start = at
        if bytes[at] == UInt8(ascii: "-") { at += 1 }
        guard at < bytes.count, Self.isDigit(bytes[at]) else { throw failure("a '-' without digits") }
        if bytes[at] == UInt8(ascii: "0") {
            at += 1
            if at < bytes.count, Self.isDigit(bytes[at]) { throw failure("a number with a leading zero") }
        } else {
            skipDigits()
        }
        var integer = true
        var exponent = false
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            integer = false
            at += 1
            guard at < bytes.count, Self.isDigit(bytes[at]) else { throw failure("no digits after a decimal point") }
            skipDigits()
        }
        if at < bytes.count, bytes[at] | 0x20 == UInt8(ascii: "e") {
            integer = false
            exponent = true
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard at < bytes.count, Self.isDigit(bytes[at]) else { throw failure("no digits in an exponent") }
            skipDigits()
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
        // The grammar above is Double's own, so the conversion cannot fail.
        let value = Double(text) ?? .nan
        guard value.isFinite else { throw failure("the number \(text.prefix(40)) is beyond what a double holds") }
        if exponent, unrepresentable == nil, value == 0, !Self.mantissaIsZero(text) { unrepresentable = String(text.prefix(40)) }
        guard integer else { return .number(value, integer: nil) }
        return .number(value, integer: text == "-0" ? "0" : text)
    }

    private static func mantissaIsZero(_ text: String) -> Bool {
        text.prefix { $0 != "e" && $0 != "E" }.allSatisfy { "0.-".contains($0) }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private mutating func skipDigits() {
        while at < bytes.count, Self.isDigit(bytes[at]) { at += 1 }
    }

    // MARK: Strings

    /// A string from its opening quote: the bytes as they are when nothing is escaped (most names and addresses).
    private mutating func string() throws(Failure) -> String {
        at += 1
        let start = at
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<at])
                at += 1
                guard let text = String(validating: slice, as: UTF8.self) else { throw failure("a string that is not UTF-8") }
                return text
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            if byte < 0x20 { throw failure("a control character not escaped in a string") }
            at += 1
        }
        throw failure("a string without its closing quote")
    }

    private mutating func escapedString(from start: Int) throws(Failure) -> String {
        var out = Array(UnsafeBufferPointer(rebasing: bytes[start..<at]))
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: out, as: UTF8.self) else { throw failure("a string that is not UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                try unescape(into: &out)
            case ..<0x20:
                at -= 1
                throw failure("a control character not escaped in a string")
            default:
                out.append(byte)
            }
        }
        throw failure("a string without its closing quote")
    }

    private mutating func unescape(into out: inout [UInt8]) throws(Failure) {
        guard at < bytes.count else { throw failure("a string without its closing quote") }
        let letter = bytes[at]
        at += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(letter)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"): out.append(contentsOf: try unicodeEscape().utf8)
        default: throw failure("an unknown escape '\\\(Character(Unicode.Scalar(letter)))' in a string")
        }
    }

    /// `\uXXXX`, or a surrogate pair of two; a surrogate without its other half is refused, as Foundation does.
    private mutating func unicodeEscape() throws(Failure) -> String {
        let first = try hexQuad()
        var scalar = Unicode.Scalar(first)
        if (0xD800...0xDBFF).contains(first) {
            guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                throw failure("a high surrogate escape without its low surrogate")
            }
            at += 2
            let second = try hexQuad()
            guard (0xDC00...0xDFFF).contains(second) else { throw failure("a high surrogate escape without its low surrogate") }
            scalar = Unicode.Scalar(0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00))
        }
        guard let scalar else { throw failure("a low surrogate escape without its high surrogate") }
        return String(Character(scalar))
    }

    private mutating func hexQuad() throws(Failure) -> UInt16 {
        guard at + 4 <= bytes.count else { throw failure("a \\u escape without four hex digits") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[at]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a \\u escape without four hex digits")
            }
            value = value << 4 | UInt16(digit)
            at += 1
        }
        return value
    }

    // MARK: Support

    private mutating func skipWhitespace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x09, 0x0A, 0x0D: at += 1
            default: return
            }
        }
    }

    private func failure(_ what: String) -> Failure {
        Failure(message: "\(what) at byte \(at + 1)")
    }
}
