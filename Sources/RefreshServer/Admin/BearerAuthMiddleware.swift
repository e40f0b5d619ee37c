import Hummingbird

/// Guards `/admin/*` with one bearer token. Without a configured token the admin API does not
/// exist (404, as if no route matched), so a misconfigured server is closed rather than open.
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    /// The configured token's bytes; nil disables the admin API.
    let token: [UInt8]?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token else { throw APIError.notFound("the admin API is disabled (no admin token configured)") }
        guard let header = request.headers[.authorization] else {
            throw APIError(
                .unauthorized, code: "unauthorized", message: "missing Authorization: Bearer <token>",
                headers: [.wwwAuthenticate: #"Bearer realm="oncue-admin""#])
        }
        let prefix = "bearer "
        guard header.utf8.count > prefix.utf8.count, header.prefix(prefix.count).lowercased() == prefix else {
            throw APIError(
                .unauthorized, code: "unauthorized", message: "the Authorization header must use the Bearer scheme",
                headers: [.wwwAuthenticate: #"Bearer realm="oncue-admin""#])
        }
        guard Self.constantTimeEquals(Array(header.utf8.dropFirst(prefix.utf8.count)), token) else {
            throw APIError(.forbidden, code: "forbidden", message: "the admin token is not valid")
        }
        return try await next(request, context)
    }

    /// Whether an `Authorization` header carries the admin token (the middleware's rule, without its messages): for
    /// decisions taken on a request's head before any route runs.
    static func admits(_ header: String?, token: [UInt8]?) -> Bool {
        let prefix = "bearer "
        guard let token, let header, header.utf8.count > prefix.utf8.count, header.prefix(prefix.count).lowercased() == prefix else {
            return false
        }
        return constantTimeEquals(Array(header.utf8.dropFirst(prefix.utf8.count)), token)
    }

    /// Compares in time that depends only on the lengths, so response timing does not reveal how
    /// many leading bytes of a guess were right.
    static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        if a.count != b.count { difference |= 1 }
        let n = max(a.count, b.count)
        for i in 0..<n {
            let x = i < a.count ? a[i] : 0
            let y = i < b.count ? b[i] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}
