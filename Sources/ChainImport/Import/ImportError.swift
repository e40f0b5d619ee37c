/// Why an import stopped. Every case rolls the whole import back.
public enum ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadableFile(path: String, reason: String)
    case csv(file: String, CSVError)
    case mapping(file: String, MappingError)
    case invalidOption(String)

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason): "cannot read \(path): \(reason)"
        case .csv(let file, let error): "\(file): \(error)"
        case .mapping(let file, let error): "\(file): \(error)"
        case .invalidOption(let message): message
        }
    }
}
