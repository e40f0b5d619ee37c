import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import RegionRefresh

/// Reads request bodies with the server's limits: the media type first (415), then the size,
/// refused from `Content-Length` before a byte is read and enforced again while reading (413).
struct RequestBodyReader: Sendable {
    let maxBytes: Int

    /// The body of a request that must be `application/json`.
    func json(_ request: Request) async throws -> ByteBuffer {
        try Self.requireMediaType(request, "application/json")
        if let length = request.headers.first(.contentLength).flatMap({ Int($0) }), length > maxBytes {
            throw APIError.bodyTooLarge(limit: maxBytes)
        }
        let body = request.body
        do {
            return try await body.collect(upTo: maxBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError.bodyTooLarge(limit: maxBytes)
        } catch is NIOTooManyBytesError {
            // A body without Content-Length (chunked) overruns while it is collected: the same answer as one refused
            // from its header.
            throw APIError.bodyTooLarge(limit: maxBytes)
        }
    }

    /// Decodes a small JSON admin body with `Codable` (snake_case keys).
    func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        let buffer = try await json(request)
        // Before JSONDecoder, whose memory grows with the depth (a 64 KB body of `[` took gigabytes).
        switch buffer.readableBytesView.withUnsafeBytes({ JSONShape.check($0) }) {
        case .tooDeep(let limit):
            throw APIError.badRequest("invalid_body", "the body nests more than \(limit) arrays or objects")
        case .duplicate(let member):
            throw APIError.badRequest(
                "invalid_body", "member '\(member.prefix(100))' appears more than once in its object", field: String(member.prefix(100)))
        case nil: break
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(T.self, from: Data(buffer.readableBytesView))
        } catch let refusal as FieldRefusal {
            // The body's own words ("a location has no field 'lon' (did you mean 'longitude'?)") reach the client.
            if refusal.contradictory { throw APIError.unprocessable("conflicting_fields", refusal.message, field: refusal.field) }
            throw APIError.badRequest("invalid_field", refusal.message, field: refusal.field)
        } catch let error as DecodingError {
            throw APIError.badRequest("invalid_body", "the body does not match the schema: \(Self.describe(error))")
        }
    }

    /// 415 unless the request says it carries `expected` (parameters such as charset are allowed).
    static func requireMediaType(_ request: Request, _ expected: String, alternatives: [String] = []) throws {
        guard let value = request.headers.first(.contentType) else {
            throw APIError(.unsupportedMediaType, code: "unsupported_media_type", message: "Content-Type must be \(expected)")
        }
        // Phones send exactly this; Foundation's trimming below bridges through NSString (5 % of a request).
        if value == expected { return }
        let mediaType = value.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard mediaType == expected || alternatives.contains(mediaType) else {
            throw APIError(
                .unsupportedMediaType, code: "unsupported_media_type",
                message: "Content-Type must be \(([expected] + alternatives).joined(separator: " or ")), got '\(value.prefix(100))'")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "missing field '\(key.stringValue)'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "field '\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
        case .dataCorrupted(let context):
            context.codingPath.isEmpty ? "not valid JSON" : "field '\(context.codingPath.map(\.stringValue).joined(separator: "."))' is invalid"
        @unknown default: "invalid"
        }
    }
}

extension HTTPFields {
    /// The first value of a header. The subscript joins all values of the name into a new string, which
    /// showed in profiles of the refresh route; these headers come once.
    func first(_ name: HTTPField.Name) -> String? {
        for field in self where field.name == name { return field.value }
        return nil
    }
}
