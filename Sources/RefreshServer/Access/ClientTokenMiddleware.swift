import Hummingbird

/// With `--client-jwt`, the public API (region-refresh, networks, locations) answers only requests that carry a valid
/// access token of the app's backend; the request then counts against its token's subject in the rate limiter, so
/// phones behind one carrier address do not share a bucket. A token not seen before counts against its address
/// before its signature is checked, and a refused one too, so guessing and forging are as limited as any other traffic.
struct ClientTokenMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let verifier: ClientTokenVerifier
    /// The rate limit, charged by address for refused requests.
    let rateLimit: RateLimitMiddleware?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let verified: ClientTokenVerifier.Verified
        var charged = false
        do {
            guard let token = BearerToken.token(in: request.headers[.authorization]) else {
                throw ClientTokenVerifier.Refusal(reason: "this server asks for the app's access token: Authorization: Bearer <token>")
            }
            if let known = try verifier.cached(token) {
                verified = known
            } else {
                // A signature check costs more than the request it guards: the address pays for it first (429 past it).
                try chargeAddress(request, context: context)
                charged = true
                verified = try await verifier.verify(token)
            }
        } catch let refusal as ClientTokenVerifier.Refusal {
            if !charged { try chargeAddress(request, context: context) }
            throw APIError(
                .unauthorized, code: "invalid_token", message: refusal.reason,
                headers: [.wwwAuthenticate: #"Bearer realm="oncue", error="invalid_token""#])
        }
        var context = context
        context.clientSubject = verified.subject
        return try await next(request, context)
    }

    private func chargeAddress(_ request: Request, context: Context) throws {
        guard let rateLimit else { return }
        try rateLimit.charge(rateLimit.client(of: request, context: context))
    }
}
