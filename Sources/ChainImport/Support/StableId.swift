/// Deterministic ids for rows that come without one.
///
/// FNV-1a 64 over the row's normalised name, address and coordinates rounded to 1e-5° (≈ 1 m):
/// the same row gets the same id on every machine and every run (Swift's `Hasher` is seeded per
/// process, so it cannot be used), and re-importing the file finds its rows again.
public enum StableId {
    public static func derive(name: String, address: String?, latitude: Double, longitude: Double) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ text: String, lettersAndDigitsOnly: Bool = true) {
            // Case, spacing and punctuation differences ("St." / "St") must not change the id.
            for scalar in text.lowercased().unicodeScalars
            where !lettersAndDigitsOnly || scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                for byte in String(scalar).utf8 {
                    hash ^= UInt64(byte)
                    hash = hash &* 0x0000_0100_0000_01B3
                }
            }
            hash ^= 0x1F
            hash = hash &* 0x0000_0100_0000_01B3
        }
        mix(name)
        mix(address ?? "")
        mix(String(Int64((latitude * 100_000).rounded())), lettersAndDigitsOnly: false)
        mix(String(Int64((longitude * 100_000).rounded())), lettersAndDigitsOnly: false)
        let hex = String(hash, radix: 16)
        return "h" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
