/// Finds a member name that appears twice in one JSON object.
///
/// JSON leaves duplicate names undefined (RFC 8259 §4): Foundation keeps the first, JavaScript and Python the last,
/// so `{"lat": 40.7, …, "lat": 95}` meant different things to the client and to the server. OnCue refuses such a
/// body and names the member. Names are compared after unescaping (`"l\u0061t"` is `lat`).
public enum DuplicateKeys {
    /// The path of the first repeated member (`network_visits.costco`, or `lat` at the top), or nil. Meant for valid
    /// JSON; on anything else it stops at the first thing it cannot read (every step consumes input, so it ends).
    public static func first(in bytes: UnsafeRawBufferPointer) -> String? {
        var scanner = Scanner(bytes: bytes)
        return scanner.value(path: "")
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var i = 0

        /// Skips one value; returns the first duplicate's path found inside it.
        mutating func value(path: String) -> String? {
            skipSpace()
            guard i < bytes.count else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "{"): return object(path: path)
            case UInt8(ascii: "["): return array(path: path)
            case UInt8(ascii: "\""):
                _ = string()
                return nil
            default:
                // A number, true, false or null: up to the next delimiter.
                while i < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[i]),
                    !isSpace(bytes[i])
                {
                    i += 1
                }
                return nil
            }
        }

        mutating func object(path: String) -> String? {
            i += 1
            var seen = Set<String>()
            while true {
                skipSpace()
                guard i < bytes.count else { return nil }
                if bytes[i] == UInt8(ascii: "}") {
                    i += 1
                    return nil
                }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard let name = string() else { return nil }
                let member = path.isEmpty ? name : "\(path).\(name)"
                if !seen.insert(name).inserted { return member }
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
                i += 1
                let before = i
                if let found = value(path: member) { return found }
                // Not JSON after all (a member without a value): stop rather than loop.
                if i == before { return nil }
            }
        }

        mutating func array(path: String) -> String? {
            i += 1
            var index = 0
            while true {
                skipSpace()
                guard i < bytes.count else { return nil }
                if bytes[i] == UInt8(ascii: "]") {
                    i += 1
                    return nil
                }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    index += 1
                    continue
                }
                let before = i
                if let found = value(path: "\(path)[\(index)]") { return found }
                if i == before { return nil }
            }
        }

        /// Reads a string at `i` (its opening quote) and returns it unescaped.
        mutating func string() -> String? {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
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
            while i < bytes.count, isSpace(bytes[i]) { i += 1 }
        }

        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    }
}
