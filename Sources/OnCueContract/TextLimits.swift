/// The longest texts a region-refresh request may carry, in Unicode scalars (what JSON Schema's `maxLength` counts). The
/// store keeps names to the same limits: `FieldLimits` in LocationStore reads them from here, so a name the store holds
/// is always one a request may send.
public enum TextLimits {
    /// A network's id, alias or display name.
    public static let networkName = 200

    /// Whether `text` is longer than `limit` scalars; stops counting at the limit.
    public static func exceeds(_ text: some StringProtocol, _ limit: Int) -> Bool {
        guard text.utf8.count > limit else { return false }  // a scalar is at least one byte
        var count = 0
        for _ in text.unicodeScalars {
            count += 1
            if count > limit { return true }
        }
        return false
    }
}
