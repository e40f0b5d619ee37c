import HTTPTypes
import Hummingbird
import Logging

/// The outermost middleware: gives each request an id (the client's `X-Request-Id` when it is a
/// plain token, else a random one), times it, counts it in the metrics and writes one access line.
///
/// The access line holds the path but never the query or the body, where coordinates travel.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let metrics: ServerMetrics
    let clock: ServerClock

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = clock.uptime()
        var context = context
        let requestID = Self.clientRequestID(request) ?? Self.randomID()
        context.logger[metadataKey: "request_id"] = .string(requestID)
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            // ErrorMiddleware sits inside this one; this only catches what it could not answer.
            response = try ErrorMiddleware.apiError(for: error, request: request, context: context).response(from: request, context: context)
        }
        response.headers[.requestID] = requestID
        let seconds = clock.seconds(since: start)
        let route = context.endpointPath
        metrics.record(method: request.method.rawValue, path: route, status: response.status.code, seconds: seconds)
        // 503 is the answer while the index loads (/readyz is polled then), not a fault of the server.
        let level: Logger.Level = response.status.code >= 500 && response.status != .serviceUnavailable ? .error : .info
        if context.logger.logLevel <= level {
            context.logger.log(
                level: level, "request",
                metadata: [
                    "method": .string(request.method.rawValue),
                    "path": .string(String(request.uri.path.prefix(200))),
                    "route": .string(route ?? "unmatched"),
                    "status": .stringConvertible(response.status.code),
                    "duration_ms": .string(Self.milliseconds(seconds)),
                ])
        }
        return response
    }

    /// A client-chosen id is echoed only when short and made of token characters, so that it
    /// cannot inject text into logs.
    private static func clientRequestID(_ request: Request) -> String? {
        guard let value = request.headers[.requestID], (1...64).contains(value.utf8.count),
            value.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E }
            )
        else { return nil }
        return value
    }

    /// 64 random bits in hex: a counter (Hummingbird's ids) would tell any client how many requests the server
    /// answered between two of its own.
    static func randomID() -> String {
        let hex = String(UInt64.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    private static func milliseconds(_ seconds: Double) -> String {
        String((seconds * 1_000_000).rounded() / 1000)
    }
}

extension HTTPField.Name {
    static let requestID = HTTPField.Name("X-Request-Id")!
}
