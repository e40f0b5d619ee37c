/// Why a region-refresh call gave no regions, as an app decides on it: a refused request is a bug to report and is
/// never retried; an unauthorised one needs a new session token; the others are worth asking again, the server's
/// `Retry-After` first.
public enum RefreshClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 400: the server refused the request (`code` is the API's, `field` the one at fault). Sending it again is futile.
    case refused(code: String, message: String, field: String?)
    /// 401 or 403: the access token is missing, expired or not accepted.
    case unauthorized(status: Int)
    /// 429: too many calls; `retryAfterSeconds` as the server asked, when it did.
    case rateLimited(retryAfterSeconds: Double?)
    /// Another status, 5xx included (503 while the server's index loads or its store is unreachable).
    case server(status: Int, code: String?, retryAfterSeconds: Double?)
    /// No answer: the connection failed or the call timed out.
    case transport(String)
    /// An answer of 200 that is not a region-refresh response.
    case undecodable(String)

    /// Whether asking again later may succeed.
    public var isRetryable: Bool {
        switch self {
        case .refused, .unauthorized, .undecodable: false
        case .rateLimited, .server, .transport: true
        }
    }

    /// The wait the server asked for before another call, if any.
    public var retryAfterSeconds: Double? {
        switch self {
        case .rateLimited(let seconds): seconds
        case .server(_, _, let seconds): seconds
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .refused(let code, let message, _): "the server refused the request (\(code)): \(message)"
        case .unauthorized(let status): "HTTP \(status): the access token was not accepted"
        case .rateLimited(let seconds): "HTTP 429: rate limited" + (seconds.map { ", retry after \($0) s" } ?? "")
        case .server(let status, let code, let seconds):
            "HTTP \(status)" + (code.map { " (\($0))" } ?? "") + (seconds.map { ", retry after \($0) s" } ?? "")
        case .transport(let reason): "no answer: \(reason)"
        case .undecodable(let reason): "an answer that is not a region-refresh response: \(reason)"
        }
    }
}
