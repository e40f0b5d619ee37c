import Foundation
import Hummingbird
import LocationStore
import Logging
import NIOCore
import NIOHTTP1
import OnCueContract
import RegionRefresh

/// Turns every error thrown below it into the JSON error shape, so that no failure leaves the
/// server as Hummingbird's plain-text default or as a dropped connection.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return try Self.apiError(for: error, request: request, context: context).response(from: request, context: context)
        }
    }

    static func apiError(for error: any Error, request: Request, context: Context) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as RegionRefreshError:
            if error == .notReady { return APIError(.serviceUnavailable, code: error.code, message: error.description, retryAfter: 1) }
            return .badRequest(error.code, error.description, field: error.field)
        case let error as StoreError:
            return map(error, context: context)
        case let error as HTTPError:
            return map(error, request: request)
        case let error as any HTTPResponseError:
            return APIError(error.status, code: code(for: error.status), message: error.status.reasonPhrase)
        case let error as ClientTimeout:
            return APIError(.requestTimeout, code: "request_timeout", message: error.message, headers: [.connection: "close"])
        case let error where isClientFault(error):
            // The client broke the exchange (closed mid-body, sent a bad chunk size): a 4xx it will likely never read,
            // counted as the client's fault rather than logged as the server's.
            context.logger.debug("client broke the request", metadata: ["error": "\(error)"])
            return APIError(
                .badRequest, code: "malformed_request", message: "the request could not be read: \(error)",
                headers: [.connection: "close"])
        default:
            // The message may quote internals; the client gets a generic one, the log gets the detail.
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: type(of: error)))", "detail": "\(error)"])
            return APIError(.internalServerError, code: "internal_error", message: "the server failed to answer; the failure was logged")
        }
    }

    /// Errors the connection raises while a route reads the body, all caused by the client: the HTTP parser's
    /// (a bad chunk size, a body cut short by the client closing) and the socket's (reset, closed).
    static func isClientFault(_ error: any Error) -> Bool {
        switch error {
        case is HTTPParserError: return true
        case let error as ChannelError: return error == .ioOnClosedChannel || error == .eof || error == .inputClosed || error == .outputClosed
        case let error as IOError: return [ECONNRESET, EPIPE, ETIMEDOUT].contains(error.errnoCode)
        default: return false
        }
    }

    private static func map(_ error: HTTPError, request: Request) -> APIError {
        switch error.status {
        case .notFound:
            let allowed = RouteTable.allowedMethods(for: Substring(request.uri.path))
            guard !allowed.isEmpty else { return .notFound("no route \(request.method.rawValue) \(request.uri.path)") }
            let list = allowed.map(\.rawValue).joined(separator: ", ")
            return APIError(
                .methodNotAllowed, code: "method_not_allowed", message: "\(request.method.rawValue) is not allowed here; use \(list)",
                headers: [.allow: list])
        case .contentTooLarge:
            return APIError(.contentTooLarge, code: "body_too_large", message: error.body ?? "the request body is too large")
        default:
            return APIError(error.status, code: code(for: error.status), message: error.body ?? error.status.reasonPhrase)
        }
    }

    private static func map(_ error: StoreError, context: Context) -> APIError {
        switch error {
        case .unknownNetwork(let id): return .notFound("unknown network '\(id)'")
        case .invalidArgument(let message): return .badRequest("invalid_argument", message)
        case .conflict(let message): return APIError(.conflict, code: "conflict", message: message)
        case .busy:
            // Another writer (an import by `oncue import`, a long merge) held the store past the wait: the change is
            // the client's to retry, not a failure of the server.
            return APIError(
                .conflict, code: "store_busy", message: "another writer held the store too long (an import?); retry when it has finished",
                retryAfter: 5)
        case .unreachable(let reason):
            // The reason names the database (its URL never shows the password): an operator reading the client's
            // error sees which member is down without the server's log.
            return APIError(
                .serviceUnavailable, code: "store_unavailable", message: "the store cannot be reached (\(reason)); retry shortly",
                retryAfter: 5)
        case .readOnly(let reason):
            // A standby where the primary was (a failover under way) or a file this process may not write: the
            // write is the client's to retry once the primary is back; nothing of it was kept.
            return APIError(
                .serviceUnavailable, code: "store_read_only", message: "the store cannot be written here (\(reason)); retry shortly",
                retryAfter: 5)
        default:
            context.logger.error("store error", metadata: ["error": "\(error)"])
            return APIError(
                .serviceUnavailable, code: "store_unavailable", message: "the location store failed; the failure was logged", retryAfter: 5)
        }
    }

    static func code(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 400: "bad_request"
        case 401: "unauthorized"
        case 403: "forbidden"
        case 404: "not_found"
        case 405: "method_not_allowed"
        case 408: "request_timeout"
        case 413: "body_too_large"
        case 415: "unsupported_media_type"
        case 429: "rate_limited"
        case 503: "unavailable"
        case 500...: "internal_error"
        default: "http_\(status.code)"
        }
    }
}
