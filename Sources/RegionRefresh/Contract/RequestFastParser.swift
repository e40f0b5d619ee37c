import OnCueContract

/// A strict, allocation-light reader for the common shape of a region-refresh body.
///
/// Phones send the same small object millions of times a day; Foundation's `JSONDecoder` builds a tree
/// of values for it first and was a fifth of the server's time per request. This reader walks the bytes
/// once and fills the request directly. It accepts only what it fully understands — the known keys, each
/// at most once, with values of the right JSON type, strings without escapes — and returns nil for
/// anything else, so the caller decodes that body with `JSONDecoder`, whose answer (a request or the
/// precise field error) stays the reference. Tests hold the two to the same results.
struct RequestFastParser {
    private let bytes: UnsafeRawBufferPointer
    private var i = 0

    static func parse(_ bytes: UnsafeRawBufferPointer) -> RegionRefreshRequest? {
        var parser = RequestFastParser(bytes: bytes)
        return parser.request()
    }

    private init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    private mutating func request() -> RegionRefreshRequest? {
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return nil }
        // lat and lon are placeholders until their keys are seen (bits 0 and 1 of `seen`).
        var request = RegionRefreshRequest(lat: .nan, lon: .nan)
        var seen: UInt16 = 0
        // Names of members it does not read, so that a repeated one is left to the reference decoding (which refuses it).
        var others: [Range<Int>] = []
        skipSpace()
        if !take(UInt8(ascii: "}")) {
            while true {
                skipSpace()
                guard let key = rawString() else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                guard let field = Self.field(key) else {
                    let start = key.baseAddress! - bytes.baseAddress!
                    let range = start..<start + key.count
                    guard !others.contains(where: { bytes[$0].elementsEqual(key) }) else { return nil }
                    // A near miss of a field (`userNetworks`) is refused by the reference decoding, naming the field.
                    let name = String(decoding: key, as: UTF8.self)
                    guard FieldNames.nearMiss(name, among: RegionRefreshRequest.fieldNames) == nil else { return nil }
                    others.append(range)
                    request.ignoredFields.append(name)
                    // An unknown key is ignored by JSONDecoder too, whatever its value; skipping values is not
                    // worth the code here, so only simple ones are taken.
                    guard skipScalar() else { return nil }
                    if !nextMember() { break } else { continue }
                }
                guard seen & (1 << field) == 0 else { return nil }  // duplicate keys: leave to JSONDecoder
                seen |= 1 << field
                if takeNull() {
                    guard field >= 2 else { return nil }  // lat and lon are required
                } else {
                    guard read(field, into: &request) else { return nil }
                }
                if !nextMember() { break }
            }
        }
        skipSpace()
        guard i == bytes.count, seen & 0b11 == 0b11 else { return nil }
        request.ignoredFields.sort()
        return request
    }

    /// Reads the value of field number `field` (see `field(_:)`) into `request`; false when it is not of the field's type.
    private mutating func read(_ field: Int, into request: inout RegionRefreshRequest) -> Bool {
        switch field {
        case 0, 1, 2, 3, 11:
            guard let v = number() else { return false }
            switch field {
            case 0: request.lat = v
            case 1: request.lon = v
            case 2: request.accuracy = v
            case 3: request.radiusKm = v
            default: request.minRadiusMeters = v
            }
        case 4:
            guard let v = stringArray() else { return false }
            request.userNetworks = v
        case 5:
            guard let v = integer() else { return false }
            request.maxRegions = v
        case 6:
            guard let v = countObject() else { return false }
            request.networkVisits = v
        case 7:
            guard let v = string() else { return false }
            request.localTime = v
        default:
            guard let v = bool() else { return false }
            switch field {
            case 8: request.includeOtherNetworks = v
            case 9: request.reserveRefreshRegion = v
            default: request.explain = v
            }
        }
        return true
    }

    /// After a member: true at `,` (another follows), false at `}`; nil-like failure is folded into `i` past the end.
    private mutating func nextMember() -> Bool {
        skipSpace()
        if take(UInt8(ascii: ",")) { return true }
        if take(UInt8(ascii: "}")) { return false }
        i = bytes.count + 1  // neither: makes the final `i == bytes.count` check fail
        return false
    }

    private static func field(_ key: UnsafeRawBufferPointer) -> Int? {
        switch key.count {
        case 3: return equals(key, "lat") ? 0 : equals(key, "lon") ? 1 : nil
        case 7: return equals(key, "explain") ? 10 : nil
        case 8: return equals(key, "accuracy") ? 2 : nil
        case 9: return equals(key, "radius_km") ? 3 : nil
        case 10: return equals(key, "local_time") ? 7 : nil
        case 11: return equals(key, "max_regions") ? 5 : nil
        case 13: return equals(key, "user_networks") ? 4 : nil
        case 14: return equals(key, "network_visits") ? 6 : nil
        case 17: return equals(key, "min_radius_meters") ? 11 : nil
        case 22: return equals(key, "include_other_networks") ? 8 : equals(key, "reserve_refresh_region") ? 9 : nil
        default: return nil
        }
    }

    private static func equals(_ key: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
        name.withUTF8Buffer { $0.count == key.count && $0.elementsEqual(key) }
    }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard i < bytes.count, bytes[i] == byte else { return false }
        i += 1
        return true
    }

    private mutating func takeLiteral(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        let matches = literal.withUTF8Buffer { lit in (0..<n).allSatisfy { bytes[i + $0] == lit[$0] } }
        if matches { i += n }
        return matches
    }

    private mutating func takeNull() -> Bool { takeLiteral("null") }

    private mutating func bool() -> Bool? {
        if takeLiteral("true") { return true }
        if takeLiteral("false") { return false }
        return nil
    }

    /// The bytes of a string without escapes or control characters, in valid UTF-8 (nil otherwise: JSONDecoder
    /// handles those, and refuses a body that is not UTF-8, even in a key this reader would skip).
    private mutating func rawString() -> UnsafeRawBufferPointer? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = i
        var ascii = true
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                defer { i += 1 }
                let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<i])
                guard ascii || String(validating: raw, as: UTF8.self) != nil else { return nil }
                return raw
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { return nil }
            if b >= 0x80 { ascii = false }
            i += 1
        }
        return nil
    }

    private mutating func string() -> String? {
        guard let raw = rawString() else { return nil }
        return String(decoding: raw, as: UTF8.self)
    }

    /// A JSON number token, strictly by the grammar, read as the nearest Double.
    private mutating func number() -> Double? {
        let start = i
        _ = take(UInt8(ascii: "-"))
        guard i < bytes.count else { return nil }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            guard digits() > 0 else { return nil }
        }
        if take(UInt8(ascii: ".")) { guard digits() > 0 else { return nil } }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() > 0 else { return nil }
        }
        let token = UnsafeRawBufferPointer(rebasing: bytes[start..<i])
        guard let text = String(validating: token, as: UTF8.self), let value = Double(text), value.isFinite else { return nil }
        // JSONDecoder refuses numbers that underflow and, oddly, a zero with an exponent (`0E2`): zeros are taken
        // only in plain form, and subnormals are left to it.
        if value.isSubnormal { return nil }
        if value == 0,
            token.contains(where: {
                $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
                    || ($0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9"))
            })
        {
            return nil
        }
        return value
    }

    private mutating func digits() -> Int {
        let start = i
        while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1 }
        return i - start
    }

    /// A number that is a whole value (as `RegionRefreshRequest` requires of counts).
    private mutating func integer() -> Int? {
        guard let v = number(), v.rounded() == v, abs(v) < 1e15 else { return nil }
        return Int(v)
    }

    private mutating func stringArray() -> [String]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var values: [String] = []
        skipSpace()
        if take(UInt8(ascii: "]")) { return values }
        while true {
            skipSpace()
            guard let s = string() else { return nil }
            values.append(s)
            skipSpace()
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "]")) ? values : nil
        }
    }

    private mutating func countObject() -> [String: Int]? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var counts: [String: Int] = [:]
        skipSpace()
        if take(UInt8(ascii: "}")) { return counts }
        while true {
            skipSpace()
            guard let key = string(), counts[key] == nil else { return nil }
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            guard let v = integer() else { return nil }
            counts[key] = v
            skipSpace()
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "}")) ? counts : nil
        }
    }

    /// Skips a number, string, true, false or null (the values of unknown keys this reader takes).
    private mutating func skipScalar() -> Bool {
        guard i < bytes.count else { return false }
        switch bytes[i] {
        case UInt8(ascii: "\""): return string() != nil
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return bool() != nil
        case UInt8(ascii: "n"): return takeNull()
        default: return number() != nil
        }
    }
}
