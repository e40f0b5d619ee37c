import Foundation
import Hummingbird
import NIOCore
import RegionRefresh

/// An error answered as `{"error": code, "message": …}` with its status; every refusal of the
/// server goes through this type so that the body shape never varies.
package struct APIError: HTTPResponseError, Sendable {
    package var status: HTTPResponse.Status
    /// Machine-readable, snake_case, stable (clients switch on it).
    package var code: String
    /// For people; may quote the request, so it is never logged.
    package var message: String
    /// The request field at fault, for 400s.
    package var field: String?
    /// Seconds until a retry can succeed (429, 503): also sent as `Retry-After`.
    package var retryAfter: Int?
    /// Extra response headers, e.g. `Allow` for 405 and `WWW-Authenticate` for 401.
    package var headers: HTTPFields
    /// For 409 `import_in_progress`: the import or edit that holds the store's writer, answered as `import_running`.
    var importRunning: ImportGate.Holder?

    package init(
        _ status: HTTPResponse.Status, code: String, message: String, field: String? = nil, retryAfter: Int? = nil,
        headers: HTTPFields = [:]
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.retryAfter = retryAfter
        self.headers = headers
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var w = JSONWriter(capacity: 128 + message.utf8.count)
        w.beginObject()
        w.key("error")
        w.string(code)
        w.key("message")
        w.string(message)
        if let field {
            w.key("field")
            w.string(field)
        }
        if let retryAfter {
            w.key("retry_after")
            w.int(retryAfter)
        }
        if let holder = importRunning {
            w.key("import_running")
            w.beginObject()
            w.key("kind")
            w.string(holder.kind.rawValue)
            w.key("key_id")
            w.string(holder.keyId)
            w.key("since")
            w.string(holder.since.formatted(.iso8601))
            w.endObject()
        }
        w.endObject()
        var fields = headers
        fields[.contentType] = "application/json"
        if let retryAfter { fields[.retryAfter] = String(retryAfter) }
        return Response(status: status, headers: fields, body: .init(byteBuffer: w.buffer))
    }
}

extension APIError {
    static func notFound(_ message: String = "no such resource") -> APIError {
        APIError(.notFound, code: "not_found", message: message)
    }

    static func badRequest(_ code: String, _ message: String, field: String? = nil) -> APIError {
        APIError(.badRequest, code: code, message: message, field: field)
    }

    /// A request whose parameters are each well-formed but cannot be carried out together or as the server is set up
    /// (geocoding asked of a server without a geocoder), or whose file cannot be imported as it is.
    static func unprocessable(_ code: String, _ message: String, field: String? = nil) -> APIError {
        APIError(.unprocessableContent, code: code, message: message, field: field)
    }

    static func bodyTooLarge(limit: Int) -> APIError {
        APIError(.contentTooLarge, code: "body_too_large", message: "the request body exceeds the limit of \(limit) bytes")
    }
}
