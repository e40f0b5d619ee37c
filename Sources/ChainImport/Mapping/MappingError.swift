/// Why a file's columns could not be mapped; the import is refused before any row is written.
public enum MappingError: Error, Equatable, Sendable, CustomStringConvertible {
    case noCoordinateColumns(headers: [String])
    case unknownColumn(role: String, column: String, headers: [String])
    case unreadableMappingFile(path: String, reason: String)
    case noNetwork(headers: [String])
    /// Geocoding a file that has neither coordinates nor an address, city or postcode column.
    case nothingToGeocode(headers: [String])

    public var description: String {
        switch self {
        case .noCoordinateColumns(let headers):
            "no usable latitude/longitude columns; headers found: \(Self.list(headers)). "
                + "Name them in a mapping file: {\"columns\": {\"latitude\": \"…\", \"longitude\": \"…\"}}"
        case .unknownColumn(let role, let column, let headers):
            "the \(role) column '\(column)' is not in the file; headers found: \(Self.list(headers))"
        case .unreadableMappingFile(let path, let reason):
            "mapping file \(path): \(reason)"
        case .nothingToGeocode(let headers):
            "no latitude/longitude columns and no address, city or postcode column to geocode; headers found: \(Self.list(headers))"
        case .noNetwork(let headers):
            "no network: pass --network ID, or --network-column COLUMN (one of \(Self.list(headers)))"
        }
    }

    private static func list(_ headers: [String]) -> String {
        headers.isEmpty ? "(none)" : headers.map { "'\($0)'" }.joined(separator: ", ")
    }
}
