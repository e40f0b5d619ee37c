/// Machine-readable reasons for rejecting or flagging a row; stored in the import log.
public enum ReasonCode: String, Sendable, Codable, CaseIterable {
    case missingCoordinates = "missing_coordinates"
    case unparseableCoordinates = "unparseable_coordinates"
    case outOfRange = "out_of_range"
    case zeroCoordinates = "zero_coordinates"
    case swappedCoordinates = "swapped_coordinates"
    case signFlippedLongitude = "sign_flipped_longitude"
    /// Inside the country but well outside the state/province the row names (a warning).
    case outsideRegion = "outside_region"
    /// Not in the country the row names at all (wrong continent).
    case outsideCountry = "outside_country"
    case missingNetwork = "missing_network"
    case unknownNetwork = "unknown_network"
    /// Same network and external id as an earlier row of the same import.
    case duplicateId = "duplicate_id"
    /// A row without an id that repeats an earlier row (same name, address and coordinates).
    case duplicateRow = "duplicate_row"
    /// Same network, another id, within 10 m of an earlier row of the same import (a warning).
    case nearDuplicate = "near_duplicate"
    /// Same network, another id, within 10 m of a location already in the store that this import does not list (a warning).
    case nearExisting = "near_existing"
    /// A US ZIP code that lost its leading zeros (`4062`), padded back (a warning).
    case zipLeadingZero = "zip_leading_zero"
    /// More fields than the header has; the extra ones are ignored (a warning).
    case extraFields = "extra_fields"
    case invalidField = "invalid_field"
}
