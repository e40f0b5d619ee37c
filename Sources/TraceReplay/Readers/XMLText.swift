import Foundation

/// Guards Foundation's XMLParser, whose Linux build traps on an element or attribute name that is not UTF-8 (found by
/// the GPX fuzzer, RELIABILITY.md): XML is UTF-8 unless its declaration names another encoding, which libxml2 then
/// converts itself.
enum XMLText {
    /// Throws when the bytes are not UTF-8 and the declaration names no other encoding, saying where they stop being
    /// UTF-8.
    static func check(_ data: Data) throws {
        if String(validating: data, as: UTF8.self) != nil { return }
        let head = String(decoding: data.prefix(200), as: UTF8.self).lowercased()
        if let declared = declaredEncoding(head), !["utf-8", "utf8"].contains(declared) { return }
        throw TraceReadError.malformed("GPX is not UTF-8 at byte \(validPrefixLength(data)) and its XML declaration names no "
                                       + "other encoding; convert the file to UTF-8")
    }

    /// The `encoding` of an `<?xml …?>` declaration at the start, lowercased.
    static func declaredEncoding(_ head: String) -> String? {
        guard head.hasPrefix("<?xml"), let end = head.range(of: "?>"), let key = head.range(of: "encoding="),
              key.upperBound < end.lowerBound else { return nil }
        let rest = head[key.upperBound...]
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return rest.dropFirst().prefix { $0 != quote }.trimmingCharacters(in: .whitespaces)
    }

    /// The length of the longest UTF-8 prefix (bisection: every prefix past the first bad byte is invalid too).
    static func validPrefixLength(_ data: Data) -> Int {
        var low = 0, high = data.count
        while low < high {
            let mid = (low + high + 1) / 2
            if String(validating: data.prefix(mid), as: UTF8.self) != nil { low = mid } else { high = mid - 1 }
        }
        return low
    }
}
