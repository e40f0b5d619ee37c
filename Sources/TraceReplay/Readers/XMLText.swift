import Foundation

/// Guards Foundation's XMLParser, whose Linux build traps on an element or attribute name that is not UTF-8 (see
/// RELIABILITY.md): XML is UTF-8 unless its declaration names another encoding, which libxml2 then
/// converts itself; Latin-1 and Windows-1252 are let through, since every byte of them converts.
enum XMLText {
    /// Throws when the bytes are not UTF-8 and the declaration names no Latin-1 encoding, saying where they stop being
    /// UTF-8.
    static func check(_ data: Data) throws {
        if let offset = dataLessInstruction(data) {
            throw TraceReadError.malformed(
                "GPX holds a processing instruction without data (<?name?>) at byte \(offset), "
                    + "which the XML parser cannot read")
        }
        if String(validating: data, as: UTF8.self) != nil { return }
        let head = String(decoding: data.prefix(200), as: UTF8.self).lowercased()
        // Only the single-byte encodings libxml2 turns into valid UTF-8 whatever the bytes; any other declaration
        // (a misspelt one included) is not trusted with bytes that are not UTF-8.
        if let declared = declaredEncoding(head), singleByte.contains(declared) { return }
        throw TraceReadError.malformed(
            "GPX is not UTF-8 at byte \(validPrefixLength(data)) and its XML declaration names no "
                + "Latin-1 encoding; convert the file to UTF-8")
    }

    static let singleByte: Set<String> = ["iso-8859-1", "latin1", "latin-1", "iso_8859-1", "iso-8859-15", "windows-1252", "cp1252"]

    /// Where a processing instruction with a target and no data (`<?name?>`) starts: libxml2 hands XMLParser a null
    /// pointer for its data, and XMLParser (Linux) reads it (a segmentation fault).
    static func dataLessInstruction(_ data: Data) -> Int? {
        let bytes = [UInt8](data)
        var i = 0
        while i + 1 < bytes.count {
            if bytes[i] == UInt8(ascii: "<"), bytes[i + 1] == UInt8(ascii: "?") {
                var j = i + 2
                while j < bytes.count, !isSpace(bytes[j]), bytes[j] != UInt8(ascii: "?"), bytes[j] != UInt8(ascii: ">") { j += 1 }
                if j > i + 2, j + 1 < bytes.count, bytes[j] == UInt8(ascii: "?"), bytes[j + 1] == UInt8(ascii: ">") { return i }
                i = j
            } else {
                i += 1
            }
        }
        return nil
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// The `encoding` of an `<?xml …?>` declaration at the start, lowercased.
    static func declaredEncoding(_ head: String) -> String? {
        guard head.hasPrefix("<?xml"), let end = head.range(of: "?>"), let key = head.range(of: "encoding="),
            key.upperBound < end.lowerBound
        else { return nil }
        let rest = head[key.upperBound...]
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return rest.dropFirst().prefix { $0 != quote }.trimmingCharacters(in: .whitespaces)
    }

    /// The length of the longest UTF-8 prefix (bisection: every prefix past the first bad byte is invalid too).
    static func validPrefixLength(_ data: Data) -> Int {
        var low = 0
        var high = data.count
        while low < high {
            let mid = (low + high + 1) / 2
            if String(validating: data.prefix(mid), as: UTF8.self) != nil { low = mid } else { high = mid - 1 }
        }
        return low
    }
}
