/// Machine-readable reasons for rejecting or flagging a row; stored in the import log.
package enum ReasonCode: String, Sendable, Codable, CaseIterable {
    case missingCoordinates = "missing_coordinates"
    case unparseableCoordinates = "unparseable_coordinates"
    case outOfRange = "out_of_range"
    case zeroCoordinates = "zero_coordinates"
    case swappedCoordinates = "swapped_coordinates"
    case signFlippedLongitude = "sign_flipped_longitude"
    /// A latitude whose sign was lost: the point is nowhere, its mirror across the equator is a place (or the file's rows).
    case signFlippedLatitude = "sign_flipped_latitude"
    /// Inside the country but well outside the state/province the row names (a warning).
    case outsideRegion = "outside_region"
    /// Not in the country the row names at all (wrong continent).
    case outsideCountry = "outside_country"
    case missingNetwork = "missing_network"
    case unknownNetwork = "unknown_network"
    /// No rule of a mapping file's `network_patterns` matches the row, and the rules reject such rows.
    case unmatchedNetwork = "unmatched_network"
    /// A `network_patterns` match stopped at its time limit, or the import's pattern budget was spent: the row's
    /// network cannot be told, so it is rejected rather than left to a guess.
    case patternTimeout = "pattern_timeout"
    /// Same network and external id as an earlier row of the same import.
    case duplicateId = "duplicate_id"
    /// A row without an id that repeats an earlier row (same address and coordinates).
    case duplicateRow = "duplicate_row"
    /// Same network, another id, within 10 m of an earlier row of the same import (a warning).
    case nearDuplicate = "near_duplicate"
    /// Same network, another id, within 10 m of a location already in the store that this import does not list (a warning).
    case nearExisting = "near_existing"
    /// A US ZIP code that lost its leading zeros (`4062`), padded back (a warning).
    case zipLeadingZero = "zip_leading_zero"
    /// A row with more fields than the header (a value with an unquoted delimiter, such as the decimal comma of
    /// `40,1`, shifted the columns after it), or with fewer fields when a coordinate column is among the missing ones:
    /// rejected. Fewer fields with only other columns missing: a warning, the missing columns read as empty.
    /// (Replaces `extra_fields`, a warning that kept such rows with whatever the shifted columns held.)
    case fieldCount = "field_count"
    /// A line (a record, when a quoted value spans lines) longer than `--max-line-bytes`: skipped without being held.
    case lineTooLong = "line_too_long"
    /// A value longer than the store keeps for its field (`FieldLimits`, counted in Unicode scalars).
    case fieldTooLong = "field_too_long"
    /// A NUL byte in an imported value, which would cut it short in the store (a UTF-16 file, or binary data).
    case nulByte = "nul_byte"
    /// Bytes that are not UTF-8 in an otherwise UTF-8 file, replaced with U+FFFD (a warning).
    case invalidUTF8 = "invalid_utf8"
    /// Coordinates written with too few decimals for a geofence (a warning; the message gives the implied error).
    case coarseCoordinates = "coarse_coordinates"
    /// The geocoder knows no place for the row's address.
    case geocodeNotFound = "geocode_not_found"
    /// The geocoder matched only an area (a city, a postcode), not a street address.
    case geocodeAmbiguous = "geocode_ambiguous"
    /// The geocoder placed the address in another country than the row names.
    case geocodeWrongCountry = "geocode_wrong_country"
    /// The geocoder could not answer (unreachable, throttling, a malformed answer).
    case geocodeFailed = "geocode_failed"
    /// A dry run asks no geocoder: the row's address is not in the cache yet.
    case geocodeNotAsked = "geocode_not_asked"
    /// The geocoded point is far from the file's own coordinates: one of the two is wrong (a warning).
    case geocodeFarFromOriginal = "geocode_far_from_original"
    /// A `radius_m` or `venue_radius_m` value that is not a number of metres in (0, 50000] (a warning: the row is
    /// kept, its region sized by the radius policy as if the column were empty).
    case invalidRadius = "invalid_radius"
    /// A network value that would create a network whose name mixes scripts within a word, holds a bidirectional
    /// control, or whose id looks like an existing network's (Unicode TS #39 confusables): make it an alias of the
    /// network it means (`oncue networks alias`), or correct the file.
    case confusableNetwork = "confusable_network"
    /// A GeoJSON feature that is not valid JSON, not a Feature, or whose geometry's coordinates are malformed.
    case invalidGeoJSON = "invalid_geojson"
    /// A GeoJSON feature whose geometry is not a place (a LineString, a GeometryCollection, several points).
    case unsupportedGeometry = "unsupported_geometry"
    /// An `opening_hours` value outside what the reader understands (month or date ranges, open ends, …): kept as
    /// written and served as always open; warned on its first row only (a warning).
    case unparsedOpeningHours = "unparsed_opening_hours"
}
