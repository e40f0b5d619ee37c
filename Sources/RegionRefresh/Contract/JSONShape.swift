/// One pass over a JSON body before anything else reads it: how deep it nests, and whether an object names a member
/// twice.
///
/// Depth comes first because every later reader (Foundation's `JSONSerialization` and `JSONDecoder`) costs memory in
/// proportion to it, and a 64 KB body of `[` repeated is 65,000 levels: refused here after at most `maxDepth` bytes,
/// with memory for `maxDepth` frames, whatever follows.
///
/// Duplicate names are refused because JSON leaves them undefined (RFC 8259 §4): Foundation keeps the first,
/// JavaScript and Python the last, so `{"lat": 40.7, …, "lat": 95}` meant different things to the client and to the
/// server. Names are compared after unescaping (`"l\u0061t"` is `lat`). The path of a repeated member is written only
/// when one is found; scanning keeps one frame per open container, never a string per level.
///
/// Meant to run before the syntax is checked: on text that is not JSON it still ends (every step consumes input) and
/// reports what it saw, leaving the syntax error to the reader that follows.
public enum JSONShape {
    /// Nesting allowed in a request body: every body the API takes nests three or four levels deep.
    public static let maxDepth = 64

    /// What the pass found.
    public enum Finding: Sendable, Hashable {
        /// More than `limit` arrays and objects open at once.
        case tooDeep(limit: Int)
        /// The first member named twice in one object, by its path (`network_visits.costco`, `[0].lat`, or `lat` at the
        /// top).
        case duplicate(path: String)
    }

    /// Depth is reported as soon as it is exceeded; otherwise the first duplicate member, once the whole text was read.
    public static func check(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = maxDepth) -> Finding? {
        var scanner = Scanner(bytes: bytes)
        return scanner.run(maxDepth: maxDepth)
    }

    /// The first member named twice, or nil; the depth check with no limit that matters for a small body.
    public static func firstDuplicate(in bytes: UnsafeRawBufferPointer) -> String? {
        if case .duplicate(let path) = check(bytes, maxDepth: .max) { return path }
        return nil
    }

    /// One open array or object.
    private struct Frame {
        let isObject: Bool
        /// Names met so far in this object.
        var seen: Set<String> = []
        /// The member whose value is being read (objects), or the element's index (arrays).
        var name = ""
        var index = 0
        /// In an object: the next string is a member's name, not a value.
        var expectsName: Bool

        init(isObject: Bool) {
            self.isObject = isObject
            expectsName = isObject
        }
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var i = 0
        var stack: [Frame] = []
        var duplicate: String?

        mutating func run(maxDepth: Int) -> Finding? {
            while true {
                skipSpace()
                guard i < bytes.count else { break }
                switch bytes[i] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard stack.count < maxDepth else { return .tooDeep(limit: maxDepth) }
                    stack.append(Frame(isObject: bytes[i] == UInt8(ascii: "{")))
                    i += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if !stack.isEmpty { stack.removeLast() }
                    i += 1
                case UInt8(ascii: ","):
                    i += 1
                    if let top = stack.indices.last {
                        if stack[top].isObject { stack[top].expectsName = true } else { stack[top].index += 1 }
                    }
                case UInt8(ascii: "\""):
                    let text = string()
                    if let top = stack.indices.last, stack[top].isObject, stack[top].expectsName, let name = text {
                        stack[top].expectsName = false
                        stack[top].name = name
                        if duplicate == nil, !stack[top].seen.insert(name).inserted { duplicate = path(endingWith: name) }
                    }
                case UInt8(ascii: ":"):
                    i += 1
                default:
                    skipScalar()
                }
            }
            return duplicate.map { .duplicate(path: $0) }
        }

        /// The path of member `name` of the innermost object: its ancestors' members and indexes, then the name.
        func path(endingWith name: String) -> String {
            var path = ""
            for frame in stack.dropLast() {
                if frame.isObject {
                    path += path.isEmpty ? frame.name : ".\(frame.name)"
                } else {
                    path += "[\(frame.index)]"
                }
            }
            return path.isEmpty ? name : "\(path).\(name)"
        }

        /// A number, true, false or null: up to the next delimiter; one byte at least, so that the scan ends.
        mutating func skipScalar() {
            let start = i
            while i < bytes.count, !Self.isDelimiter(bytes[i]) { i += 1 }
            if i == start { i += 1 }
        }

        static func isDelimiter(_ b: UInt8) -> Bool {
            switch b {
            case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""),
                UInt8(ascii: ":"):
                true
            default: isSpace(b)
            }
        }

        /// Reads a string at `i` (its opening quote) and returns it unescaped; nil when the text ends inside it.
        mutating func string() -> String? {
            i += 1
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                raw.removeAll(keepingCapacity: true)
            }
            var pendingHigh: UInt32?
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") {
                    i += 1
                    flush()
                    return String(scalars)
                }
                guard b == UInt8(ascii: "\\"), i + 1 < bytes.count else {
                    raw.append(b)
                    i += 1
                    continue
                }
                flush()
                let e = bytes[i + 1]
                i += 2
                switch e {
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "u"):
                    guard i + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16) else { return nil }
                    i += 4
                    if (0xD800...0xDBFF).contains(v) {
                        pendingHigh = v
                        continue
                    }
                    if let high = pendingHigh, (0xDC00...0xDFFF).contains(v) {
                        scalars.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (v - 0xDC00)) ?? "\u{FFFD}")
                    } else {
                        scalars.append(Unicode.Scalar(v) ?? "\u{FFFD}")
                    }
                default: scalars.append(Unicode.Scalar(e))  // \" \\ \/
                }
                pendingHigh = nil
            }
            return nil
        }

        mutating func skipSpace() {
            while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
        }

        static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    }
}
