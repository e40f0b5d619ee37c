import Foundation
import HTTPTypes
import Hummingbird

/// Answers 429 with `Retry-After` once a client has used up its bucket. The client is the subject of a verified access
/// token (`ClientTokenMiddleware`), or else the peer address, or behind trusted proxies the address they forwarded
/// (`ClientResolver`).
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let limiter: TokenBucketLimiter
    let clients: ClientResolver
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try charge(context.clientSubject ?? client(of: request, context: context))
        return try await next(request, context)
    }

    /// Takes one request from `client`'s bucket; throws 429 when it is empty.
    func charge(_ client: ClientKey) throws {
        if case .denied(let retryAfter) = limiter.acquire(client: client) {
            metrics.rateLimited()
            throw APIError(
                .tooManyRequests, code: "rate_limited",
                message: "too many requests from this client; retry after \(retryAfter) s", retryAfter: retryAfter)
        }
    }

    /// The address a request counts against.
    func client(of request: Request, context: Context) -> ClientKey {
        guard let header = clients.header else { return context.peer }
        return clients.client(peer: context.peer, headerValues: request.headers[values: header])
    }
}
