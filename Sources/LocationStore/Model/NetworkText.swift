import _FoundationICU

/// The rule for text that names a network — an id, a display name, an alias — beyond length and control characters:
/// no bidirectional controls (a right-to-left override makes `octsoc` display as "costco"), no word mixing scripts
/// that are not used together (Cyrillic `с` and `о` in a Latin `соstco`), and no new id that looks like an existing
/// one (its Unicode TS #39 confusable skeleton is another network's) unless it is made that network's alias.
///
/// ICU implements TS #39 with the full confusables data; it is the ICU the Swift toolchain ships for Foundation.
public enum NetworkText {
    /// Why `text` cannot name a network, or nil.
    public static func problem(_ text: String) -> String? {
        if text.unicodeScalars.contains(where: FieldLimits.isControl) {
            return "holds a control character"
        }
        if let control = text.unicodeScalars.first(where: isBidiControl) {
            return "holds a bidirectional control character (U+\(String(control.value, radix: 16, uppercase: true))), "
                + "which can make it display as another name"
        }
        for word in words(text) {
            let scripts = Set(word.unicodeScalars.compactMap(script))
            if scripts.count > 1, !usedTogether.contains(where: { scripts.isSubset(of: $0) }) {
                return "mixes scripts within the word '\(word)', as a look-alike of another name would"
            }
        }
        return nil
    }

    /// The TS #39 skeleton of `text`, lower-cased first: two ids with the same skeleton look alike.
    public static func skeleton(_ text: String) -> String {
        let lowered = text.lowercased()
        var status = U_ZERO_ERROR
        var buffer = [CChar](repeating: 0, count: 4 * lowered.utf8.count + 16)
        let length = swift_uspoof_getSkeletonUTF8(checker, 0, lowered, -1, &buffer, Int32(buffer.count), &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue, length >= 0 else { return lowered }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The existing id among `ids` that `id` looks like (same skeleton, another id), if any.
    public static func lookAlike(of id: String, among ids: some Sequence<String>) -> String? {
        let own = skeleton(id)
        return ids.first { $0 != id && skeleton($0) == own }
    }

    /// ICU's checker; set up once, read-only afterwards (ICU's checks and skeletons are thread-safe then).
    nonisolated(unsafe) private static let checker: OpaquePointer? = {
        var status = U_ZERO_ERROR
        return swift_uspoof_open(&status)
    }()

    /// Whether `text` holds a bidirectional control (aliases may mix scripts — that is how a look-alike is made to mean
    /// the network it imitates — but not reorder how they display).
    public static func hasBidiControl(_ text: String) -> Bool { text.unicodeScalars.contains(where: isBidiControl) }

    /// U+061C, U+200E/F, U+202A–E, U+2066–9.
    static func isBidiControl(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Letters and digits between anything else.
    static func words(_ text: String) -> [Substring] {
        text.split { c in !c.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil } }
    }

    /// A scalar's script, nil for Common and Inherited (digits, punctuation, combining marks).
    static func script(_ s: Unicode.Scalar) -> Int32? {
        var status = U_ZERO_ERROR
        let code = swift_uscript_getScript(UChar32(s.value), &status).rawValue
        return code <= 1 ? nil : code
    }

    /// Scripts one word may combine: Japanese, Chinese with Bopomofo, Korean, each with Latin (TS #39's "highly
    /// restrictive" level).
    static let usedTogether: [Set<Int32>] = [
        [USCRIPT_LATIN.rawValue, USCRIPT_HAN.rawValue, USCRIPT_HIRAGANA.rawValue, USCRIPT_KATAKANA.rawValue],
        [USCRIPT_LATIN.rawValue, USCRIPT_HAN.rawValue, USCRIPT_BOPOMOFO.rawValue],
        [USCRIPT_LATIN.rawValue, USCRIPT_HAN.rawValue, USCRIPT_HANGUL.rawValue],
    ]
}
