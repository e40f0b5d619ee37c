/// Why a file's columns could not be mapped; the import is refused before any row is written.
package enum MappingError: Error, Equatable, Sendable, CustomStringConvertible {
    case noCoordinateColumns(headers: [String])
    case unknownColumn(role: String, column: String, headers: [String])
    case unreadableMappingFile(path: String, reason: String)
    case noNetwork(headers: [String])
    /// Geocoding a file that has neither coordinates nor an address, city or postcode column.
    case nothingToGeocode(headers: [String])
    /// Several columns could hold a role (`lat` and `latitude`, or two `lat`), described as `'lat' (column 3)`;
    /// `byNumber` when they share the name a mapping gave, so only a column number can tell them apart.
    case ambiguousColumns(role: String, columns: [String], byNumber: Bool)

    package var description: String {
        switch self {
        case .noCoordinateColumns(let headers):
            "no usable latitude/longitude columns; headers found: \(Self.list(headers)). "
                + "Name them in a mapping file: {\"columns\": {\"latitude\": \"…\", \"longitude\": \"…\"}}, "
                + "or place the rows by their addresses with a geocoder: --geocoder URL (or ONCUE_GEOCODER)"
        case .unknownColumn(let role, let column, let headers):
            "the \(role) column '\(column.clipped())' is not in the file; headers found: \(Self.list(headers))"
        case .unreadableMappingFile(let path, let reason):
            "mapping file \(path): \(reason)"
        case .nothingToGeocode(let headers):
            "no latitude/longitude columns and no address, city or postcode column to geocode; headers found: \(Self.list(headers))"
        case .noNetwork(let headers):
            "no network: pass --network ID, or --network-column COLUMN (one of \(Self.list(headers)))"
        case .ambiguousColumns(let role, let columns, let byNumber):
            "the \(role) could be in \(columns.joined(separator: " or ")); name the one to read in a mapping file, "
                + (byNumber
                    ? "by its number: {\"columns\": {\"\(role)\": \"#N\"}}"
                    : "e.g. {\"columns\": {\"\(role)\": \"NAME\"}} (or \"#N\" for column N)")
        }
    }

    /// The headers for a message: each cut short and made safe for a terminal, at most `limit` of them.
    private static func list(_ headers: [String], limit: Int = 30) -> String {
        guard !headers.isEmpty else { return "(none)" }
        let shown = headers.prefix(limit).map { "'\($0.clipped(40))'" }.joined(separator: ", ")
        return headers.count > limit ? shown + " and \(headers.count - limit) more" : shown
    }
}
