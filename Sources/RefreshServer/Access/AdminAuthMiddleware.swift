import Hummingbird
import LocationStore

/// Guards `/admin/*`: a request needs the bootstrap token or an unrevoked admin key (`AdminKeyRing`), and acts as its
/// principal, which later handlers read from the context (roles, the audit log). Without a bootstrap token and with no
/// key in the store the admin API does not exist (404, as if no route matched).
struct AdminAuthMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let keys: AdminKeyRing

    static let challenge: HTTPFields = [.wwwAuthenticate: #"Bearer realm="oncue-admin""#]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let token = BearerToken.token(in: request.headers[.authorization])
        // A key just made elsewhere enables an API that had none: an unknown token reads the keys first.
        let principal = if let token { await keys.authenticate(token: token) } else { AdminPrincipal?.none }
        guard let principal else {
            guard keys.isEnabled else { throw APIError.notFound("the admin API is disabled (no admin token or key configured)") }
            guard request.headers[.authorization] != nil else {
                throw APIError(.unauthorized, code: "unauthorized", message: "missing Authorization: Bearer <token>", headers: Self.challenge)
            }
            guard token != nil else {
                throw APIError(
                    .unauthorized, code: "unauthorized", message: "the Authorization header must use the Bearer scheme", headers: Self.challenge)
            }
            throw APIError(.forbidden, code: "forbidden", message: "the admin token is not valid (unknown or revoked)")
        }
        var context = context
        context.admin = principal
        return try await next(request, context)
    }
}

/// The role a route asks for, checked against the request's principal before its handler runs.
struct RoleCheck {
    /// `handler`, run only for a principal of at least `role`; others get 403 `insufficient_role`.
    static func requiring<Output: ResponseGenerator>(
        _ role: AdminRole, _ handler: @escaping @Sendable (Request, ServerContext) async throws -> Output
    ) -> @Sendable (Request, ServerContext) async throws -> Output {
        { request, context in
            guard let principal = context.admin, principal.role >= role else {
                throw APIError(
                    .forbidden, code: "insufficient_role",
                    message:
                        "this route needs an admin key of role '\(role.rawValue)' or above; this key is '\(context.admin?.role.rawValue ?? "none")'")
            }
            return try await handler(request, context)
        }
    }
}
