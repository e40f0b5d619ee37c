import Foundation
import HTTPTypes
import Hummingbird

/// Answers 429 with `Retry-After` once a client has used up its bucket. The client is the peer address, or behind
/// trusted proxies the address they forwarded (`ClientResolver`).
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let limiter: TokenBucketLimiter
    let clients: ClientResolver
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if case .denied(let retryAfter) = limiter.acquire(client: client(of: request, context: context)) {
            metrics.rateLimited()
            throw APIError(
                .tooManyRequests, code: "rate_limited",
                message: "too many requests from this client; retry after \(retryAfter) s", retryAfter: retryAfter)
        }
        return try await next(request, context)
    }

    private func client(of request: Request, context: Context) -> ClientKey {
        guard let header = clients.header else { return context.peer }
        return clients.client(peer: context.peer, headerValues: request.headers[values: header])
    }
}
