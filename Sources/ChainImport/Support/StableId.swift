/// Deterministic ids for rows that come without one.
///
/// FNV-1a 64 over the row's normalised name, address and coordinates rounded to 1e-5° (≈ 1 m):
/// the same row gets the same id on every machine and every run (Swift's `Hasher` is seeded per
/// process, so it cannot be used), and re-importing the file finds its rows again.
public enum StableId {
    public static func derive(name: String, address: String?, latitude: Double, longitude: Double) -> String {
        var hash = Hash()
        hash.mix(folded: name)
        hash.mix(folded: address ?? "")
        hash.mix(exact: String(Int64((latitude * 100_000).rounded())))
        hash.mix(exact: String(Int64((longitude * 100_000).rounded())))
        return hash.id
    }

    /// For a row without coordinates (a geocoder places it): name and address alone, so that the id does not move
    /// when the geocoder's answer does.
    public static func derive(name: String, address: String?, city: String?, postalCode: String?) -> String {
        var hash = Hash()
        for part in [name, address ?? "", city ?? "", postalCode ?? ""] { hash.mix(folded: part) }
        hash.mix(exact: "geocoded")  // never equal to an id derived with coordinates
        return hash.id
    }

    private struct Hash {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325

        /// Case, spacing and punctuation differences ("St." / "St") must not change the id.
        mutating func mix(folded text: String) {
            for scalar in text.lowercased().unicodeScalars where scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                mix(String(scalar).utf8)
            }
            separate()
        }

        mutating func mix(exact text: String) {
            mix(text.utf8)
            separate()
        }

        private mutating func mix(_ bytes: String.UTF8View) {
            for byte in bytes {
                value ^= UInt64(byte)
                value = value &* 0x0000_0100_0000_01B3
            }
        }

        private mutating func separate() {
            value ^= 0x1F
            value = value &* 0x0000_0100_0000_01B3
        }

        var id: String {
            let hex = String(value, radix: 16)
            return "h" + String(repeating: "0", count: 16 - hex.count) + hex
        }
    }
}
