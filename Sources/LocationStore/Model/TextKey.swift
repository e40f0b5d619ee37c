import Foundation

/// Keys that compare texts whatever their case, spaces and punctuation: header names, brand names.
package enum TextKey {
    /// `"Address.Latitude "` → `"addresslatitude"`, `"Mc Donald's"` → `"mcdonalds"`: lower case, letters and digits only.
    package static func lettersAndDigits(_ header: some StringProtocol) -> String {
        let utf8 = header.utf8
        // ASCII (nearly every value: regions and countries are normalised on every row) without Unicode properties.
        if utf8.allSatisfy({ $0 < 0x80 }) {
            return String(unsafeUninitializedCapacity: utf8.count) { out in
                var n = 0
                for b in utf8 {
                    switch b {
                    case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                        out[n] = b + 32
                        n += 1
                    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                        out[n] = b
                        n += 1
                    default: break
                    }
                }
                return n
            }
        }
        return String(header.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }.map(Character.init))
    }
}
