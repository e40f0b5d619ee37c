import OnCueContract

/// The longest text each field of the store may hold, in Unicode scalars (what JSON Schema's `maxLength` counts).
///
/// One table for every way text enters the store: a CSV import rejects a row whose field is longer, the admin API
/// answers 400, and `openapi.yaml` states the same numbers. Without a limit a 50 MB store name went into the store and
/// into every region-refresh answer near it.
public enum FieldLimits {
    /// A network id is a slug of the brand; real ones are under 40.
    public static let networkId = 100
    public static let networkName = TextLimits.networkName
    public static let alias = 200
    public static let category = 100
    /// A location's own id from its file (store number, FSCSKEY, an OSM id).
    public static let locationId = 200
    public static let locationName = 200
    public static let address = 500
    /// City, region, country and postal code: short by nature.
    public static let place = 100
    /// OpenStreetMap's own limit for a tag value.
    public static let openingHours = 255

    /// C0 and C1 controls and DEL, which have no business in a name or a logged value and can drive a terminal: the one
    /// rule of the admin API, the import's network names and `oncue networks`.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Whether `text` is longer than `limit` scalars; stops counting at the limit.
    public static func exceeds(_ text: some StringProtocol, _ limit: Int) -> Bool { TextLimits.exceeds(text, limit) }
}
