/// Why an import stopped. Every case rolls the whole import back.
package enum ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadableFile(path: String, reason: String)
    case csv(file: String, CSVError)
    case geojson(file: String, GeoJSONError)
    case mapping(file: String, MappingError)
    case invalidOption(String)
    /// The files have a header and no data row: nothing to import, and no network is created for them.
    case noRows(file: String)
    /// `--require-geocode`: the service could not answer for some addresses, so nothing was imported.
    case geocodingFailed(failed: Int, of: Int, service: String, example: String)

    package var description: String {
        switch self {
        case .unreadableFile(let path, let reason): "cannot read \(path): \(reason)"
        case .csv(let file, let error): "\(file): \(error)"
        case .geojson(let file, let error): "\(file): \(error)"
        case .mapping(let file, let error): "\(file): \(error)"
        case .invalidOption(let message): message
        case .noRows(let file):
            "\(file): a header and no data rows; nothing was imported (to empty a network, import it with --replace-network)"
        case .geocodingFailed(let failed, let total, let service, let example):
            "geocoding failed for \(failed) of \(total) addresses at \(service) (e.g. \(example)); nothing was imported "
                + "(--require-geocode). The answers fetched are cached: running the import again asks only the rest."
        }
    }
}
