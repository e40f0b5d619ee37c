import LocationStore

/// The longest value the import takes for each column role: the store's `FieldLimits`, so that a file can put no
/// more into the store than the admin API can. A network value becomes a network's alias and name (and its slug the
/// network's id, checked where a network is created, `NetworkResolver`).
enum FieldLengthCheck {
    static func limit(_ role: FieldRole) -> Int? {
        switch role {
        case .id: FieldLimits.locationId
        case .name: FieldLimits.locationName
        case .address: FieldLimits.address
        case .city, .region, .postalCode, .country: FieldLimits.place
        case .network: min(FieldLimits.alias, FieldLimits.networkName)
        case .networkName, .brandWikidata: FieldLimits.networkName
        case .openingHours: FieldLimits.openingHours
        case .latitude, .longitude, .radius, .venueRadius: nil  // parsed, never stored as text; an overlong one is unparseable
        }
    }

    /// The rejection for a value over its role's limit, or nil.
    static func check(_ role: FieldRole, _ value: String?, column: @autoclosure () -> String) -> RowIssue? {
        guard let value, let limit = limit(role), FieldLimits.exceeds(value, limit) else { return nil }
        let length = value.unicodeScalars.count
        return RowIssue(
            .fieldTooLong,
            "the \(role.rawValue) value (column '\(column().clipped(40))') is \(length) characters long, "
                + "more than the \(limit) the store keeps: '\(value.clipped(40))'")
    }
}
