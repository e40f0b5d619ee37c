import Foundation
import HTTPTypes
import Hummingbird

/// Answers 429 with `Retry-After` once a client has used up its bucket. The client is the peer
/// address, or the first address in a configured header when the server sits behind a proxy.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let limiter: TokenBucketLimiter
    let clientHeader: HTTPField.Name?
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
        if let clientHeader, let value = request.headers[clientHeader] {
            // X-Forwarded-For lists the original client first.
            let first = value.split(separator: ",", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if !first.isEmpty { return .named(String(first.prefix(100))) }
        }
        return context.peer
    }
}
