/// The character encodings the importer reads. Delimiters, quotes and line breaks are ASCII in
/// all of them, so tokenizing happens on bytes and only field values are decoded.
public enum TextEncoding: String, Sendable, Codable, CaseIterable {
    case utf8 = "utf-8"
    case windows1252 = "windows-1252"
    case latin1 = "iso-8859-1"

    /// Accepts the usual spellings (`UTF8`, `cp1252`, `latin-1`, …).
    public init?(name: String) {
        let key = name.lowercased().filter { $0.isLetter || $0.isNumber }
        switch key {
        case "utf8": self = .utf8
        case "windows1252", "cp1252", "win1252": self = .windows1252
        case "latin1", "iso88591", "l1": self = .latin1
        default: return nil
        }
    }

    /// Decodes one field. Windows-1252 is used for Latin-1 as well: it differs only in 0x80–0x9F,
    /// which Latin-1 assigns to C1 control characters that never occur in real text.
    func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        switch self {
        case .utf8: String(validating: bytes, as: UTF8.self)
        case .windows1252, .latin1: Windows1252.decode(bytes)
        }
    }
}

enum Windows1252 {
    /// Code points of bytes 0x80–0x9F; the five bytes Windows-1252 leaves undefined map to the
    /// C1 control of the same value, as browsers (WHATWG) do.
    private static let high: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        for b in bytes {
            let value = (0x80...0x9F).contains(b) ? high[Int(b) - 0x80] : UInt32(b)
            scalars.append(Unicode.Scalar(value)!)
        }
        return String(scalars)
    }
}
