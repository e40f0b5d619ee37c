import Foundation
import LocationStore

/// The rule for free text an admin sends (network names, aliases, ids, categories), stated the same way in
/// `openapi.yaml`: at most the field's limit in characters, no control characters, and for required text something
/// besides white space. The character sets are written out, not left to a regex engine's `\s` or `\w`, which
/// differ between the engines that read the document (ECMA-262's are ASCII-only, Python's are Unicode).
enum AdminText {
    /// Checks `text` and returns it trimmed; 400 names the field.
    static func required(_ text: String, field: String, limit: Int) throws -> String {
        try check(text, field: field, limit: limit)
        guard text.unicodeScalars.contains(where: { !isBlank($0) }) else {
            throw APIError.badRequest("invalid_field", "field '\(field)' must hold more than white space", field: field)
        }
        return trimmed(text)
    }

    static func check(_ text: String, field: String, limit: Int) throws {
        guard !FieldLimits.exceeds(text, limit) else {
            throw APIError.badRequest("invalid_field", "field '\(field)' must be at most \(limit) characters", field: field)
        }
        guard !text.unicodeScalars.contains(where: isControl) else {
            throw APIError.badRequest("invalid_field", "field '\(field)' must not hold control characters", field: field)
        }
    }

    /// `FieldLimits.isControl`: the store's rule, which imports and the CLI keep too.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool { FieldLimits.isControl(scalar) }

    /// White space as the document's patterns list it (Unicode's space separators, the line and paragraph
    /// separators, the byte-order mark), and controls.
    static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: isControl(scalar)
        }
    }

    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isBlank($0) }), let last = scalars.lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(scalars[first...last])
    }
}
