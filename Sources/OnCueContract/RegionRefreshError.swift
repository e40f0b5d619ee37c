/// Why a region-refresh request was refused. The HTTP layer maps every case to 400 with
/// `{"error": code, "message": description}`.
public enum RegionRefreshError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformedJSON(String)
    case missingField(String)
    case invalidField(field: String, reason: String)
    /// The index is not loaded yet (HTTP 503).
    case notReady

    public var code: String {
        switch self {
        case .malformedJSON: "malformed_json"
        case .missingField: "missing_field"
        case .invalidField: "invalid_field"
        case .notReady: "not_ready"
        }
    }

    /// The offending field, when there is one.
    public var field: String? {
        switch self {
        case .missingField(let f): f
        case .invalidField(let f, _): f
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .malformedJSON(let m): "request body is not valid JSON: \(m)"
        case .missingField(let f): "missing required field '\(f)'"
        case .invalidField(let f, let reason): "field '\(f)' \(reason)"
        case .notReady: "the location index is not loaded yet; retry shortly"
        }
    }

    /// A `JSONDecoder` failure as the API words it, naming the field at fault.
    public init(decoding error: DecodingError) {
        func path(_ codingPath: [any CodingKey], _ key: (any CodingKey)? = nil) -> String {
            let keys = (codingPath + (key.map { [$0] } ?? [])).map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.joined(separator: ".").replacing(".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context):
            self = .missingField(path(context.codingPath, key))
        case .valueNotFound(let type, let context):
            let field = path(context.codingPath)
            if field.isEmpty {
                self = .malformedJSON("the body must be a JSON object")
            } else {
                self = .invalidField(field: field, reason: "must be \(Self.describe(type)), not null")
            }
        case .typeMismatch(let type, let context):
            let field = path(context.codingPath)
            if field.isEmpty {
                self = .malformedJSON("the body must be a JSON object")
            } else {
                self = .invalidField(field: field, reason: "must be \(Self.describe(type))")
            }
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            if field.isEmpty {
                self = .malformedJSON(Self.underlying(context))
            } else {
                self = .invalidField(field: field, reason: "is not valid: \(context.debugDescription)")
            }
        @unknown default:
            self = .malformedJSON(String(describing: error))
        }
    }

    private static func underlying(_ context: DecodingError.Context) -> String {
        if let e = context.underlyingError { return String(describing: e) }
        return context.debugDescription
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type: "a number"
        case is Int.Type: "an integer"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is [String].Type: "an array of strings"
        case is [String: Int].Type: "an object of integer counts"
        default:
            // JSONDecoder names the containers it expected as Swift types (`Array<Any>`, `Dictionary<String, Any>`): a
            // client reads JSON's words.
            "\(type)".hasPrefix("Array") ? "an array" : "\(type)".hasPrefix("Dictionary") ? "an object" : "of another JSON type"
        }
    }
}
