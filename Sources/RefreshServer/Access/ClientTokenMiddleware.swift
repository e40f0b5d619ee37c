import Hummingbird

/// With `--client-jwt`, the public API (region-refresh, networks, locations) answers only requests that carry a valid
/// access token of the app's backend; the request then counts against its token's subject in the rate limiter, so
/// phones behind one carrier address do not share a bucket. A refused request still counts against its address, so
/// guessing is as limited as any other traffic.
struct ClientTokenMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let verifier: ClientTokenVerifier
    /// The rate limit, charged by address for refused requests.
    let rateLimit: RateLimitMiddleware?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let verified: ClientTokenVerifier.Verified
        do throws(ClientTokenVerifier.Refusal) {
            guard let token = BearerToken.token(in: request.headers[.authorization]) else {
                throw .init(reason: "this server asks for the app's access token: Authorization: Bearer <token>")
            }
            verified = try await verifier.verify(token)
        } catch {
            try rateLimit?.charge(rateLimit?.client(of: request, context: context) ?? context.peer)
            throw APIError(
                .unauthorized, code: "invalid_token", message: error.reason,
                headers: [.wwwAuthenticate: #"Bearer realm="oncue", error="invalid_token""#])
        }
        var context = context
        context.clientSubject = verified.subject
        return try await next(request, context)
    }
}
