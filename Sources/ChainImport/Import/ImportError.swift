/// Why an import stopped. Every case rolls the whole import back.
package enum ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadableFile(path: String, reason: String)
    case csv(file: String, CSVError)
    case geojson(file: String, GeoJSONError)
    case mapping(file: String, MappingError)
    case invalidOption(String)
    /// `--require-geocode`: the service could not answer for some addresses, so nothing was imported.
    case geocodingFailed(failed: Int, of: Int, service: String, example: String)

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason): "cannot read \(path): \(reason)"
        case .csv(let file, let error): "\(file): \(error)"
        case .geojson(let file, let error): "\(file): \(error)"
        case .mapping(let file, let error): "\(file): \(error)"
        case .invalidOption(let message): message
        case .geocodingFailed(let failed, let total, let service, let example):
            "geocoding failed for \(failed) of \(total) addresses at \(service) (e.g. \(example)); nothing was imported "
                + "(--require-geocode). The answers fetched are cached: running the import again asks only the rest."
        }
    }
}
