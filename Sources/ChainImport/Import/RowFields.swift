/// Reads the mapped fields of one record as clean text: decoded in the file's encoding, trimmed,
/// line breaks inside quoted values turned into spaces, empty values as nil.
struct RowFields {
    let mapping: ColumnMapping
    /// `mapping.columns` by `FieldRole.ordinal`: read for every field of every row.
    private let columnsByRole: [[Int]?]

    init(mapping: ColumnMapping) {
        self.mapping = mapping
        var byRole = [[Int]?](repeating: nil, count: FieldRole.allCases.count)
        for (role, indexes) in mapping.columns { byRole[role.ordinal] = indexes }
        columnsByRole = byRole
    }

    func has(_ role: FieldRole) -> Bool { columnsByRole[role.ordinal] != nil }

    /// The header name(s) of a role's column, for messages.
    func column(_ role: FieldRole) -> String {
        (mapping.columns[role] ?? []).map { mapping.headers[$0] }.joined(separator: " + ")
    }

    func value(_ role: FieldRole, in record: CSVRecord, decoder: inout EncodingDetector) -> String? {
        guard let indexes = columnsByRole[role.ordinal] else { return nil }
        if indexes.count == 1 { return Self.clean(record.field(indexes[0]), decoder: &decoder) }
        let parts = indexes.compactMap { Self.clean(record.field($0), decoder: &decoder) }
        return parts.isEmpty ? nil : parts.joined(separator: "-")
    }

    static func clean(_ raw: ArraySlice<UInt8>, decoder: inout EncodingDetector) -> String? {
        var lo = raw.startIndex
        var hi = raw.endIndex
        while lo < hi, isSpace(raw[lo]) { lo += 1 }
        while hi > lo, isSpace(raw[hi - 1]) { hi -= 1 }
        guard lo < hi else { return nil }
        let trimmed = raw[lo..<hi]
        if trimmed.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
            var collapsed: [UInt8] = []
            var lastWasBreak = false
            for b in trimmed {
                let isBreak = b == 0x0A || b == 0x0D
                if isBreak { if !lastWasBreak { collapsed.append(0x20) } } else { collapsed.append(b) }
                lastWasBreak = isBreak
            }
            return decoder.decode(collapsed[...])
        }
        return decoder.decode(trimmed)
    }

    /// A value as a file's field would be read (`clean`): what a one-location edit writes, so that the id it looks for
    /// after the write is the one the import stored.
    static func clean(_ text: String) -> String? {
        var decoder = EncodingDetector(forced: .utf8)
        return clean(Array(text.utf8)[...], decoder: &decoder)
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
}

/// US ZIP code clean-up and extraction.
enum PostalCode {
    /// `4062` → `04062`, `501-1234` → `00501-1234` (spreadsheets drop leading zeros); nil when nothing to fix.
    static func restoredZip(_ value: String) -> String? {
        // Most values are whole ZIPs: only a head of 3 or 4 ASCII digits before any "-" can need zeros.
        let utf8 = value.utf8
        let headBytes = utf8.prefix { $0 != UInt8(ascii: "-") }
        guard (3...4).contains(headBytes.count), headBytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let parts = value.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count <= 2, let head = parts.first, (3...4).contains(head.count), head.allSatisfy(\.isASCIIDigit) else { return nil }
        if parts.count == 2 && !(parts[1].count == 4 && parts[1].allSatisfy(\.isASCIIDigit)) { return nil }
        let padded = String(repeating: "0", count: 5 - head.count) + head
        return parts.count == 2 ? padded + "-" + parts[1] : padded
    }

    /// The ZIP at the end of a one-line US address (`346 W Magnolia Ave Auburn, AL 36832 US`).
    static func zipInAddress(_ address: String) -> String? {
        let tokens = address.split(whereSeparator: { $0 == " " || $0 == "," })
        guard tokens.count > 1 else { return nil }
        for token in tokens.dropFirst().reversed() {
            let parts = token.split(separator: "-", omittingEmptySubsequences: false)
            if parts[0].count == 5, parts[0].allSatisfy(\.isASCIIDigit),
                parts.count == 1 || (parts.count == 2 && parts[1].count == 4 && parts[1].allSatisfy(\.isASCIIDigit))
            {
                return String(token)
            }
        }
        return nil
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
