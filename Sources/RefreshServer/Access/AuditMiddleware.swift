import Foundation
import Hummingbird
import LocationStore
import Logging

/// Records every admin write (any method but GET and HEAD) in the store's audit log once it has been answered: the key
/// that acted, the route, the path it acted on with the request's options (its query), and the status it got,
/// refusals included (sampled: `AuditSampler`). Runs after `AdminAuthMiddleware`, so unauthenticated requests (which
/// name no key) are not recorded; the request log has them.
///
/// A write runs only when its entry can be recorded (`AuditRecorder.isAccepting`): otherwise it is refused with 503
/// before anything is changed, so that no admin write is acknowledged without its entry.
struct AuditMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let recorder: AuditRecorder

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .get, request.method != .head, let principal = context.admin else {
            return try await next(request, context)
        }
        guard recorder.isAccepting else {
            throw APIError(
                .serviceUnavailable, code: "audit_unavailable",
                message: "the audit log cannot record this write now (too many entries wait for the store); nothing was changed", retryAfter: 5)
        }
        // The route's template, never the concrete path: refusals are counted by it, and a path is the client's text.
        let action = "\(request.method.rawValue) \(context.endpointPath ?? "(no route)")"
        let target = request.uri.query.map { "\(request.uri.path)?\($0)" } ?? request.uri.path
        let entry = { (status: Int, detail: String?) in
            AuditEntry(at: recorder.clock.now(), keyId: principal.keyId, action: action, target: target, result: String(status), detail: detail)
        }
        do {
            let response = try await next(request, context)
            await recorder.record(entry(response.status.code, response.headers[.location].map { "see \($0)" }))
            return response
        } catch {
            let refusal = ErrorMiddleware.apiError(for: error, request: request, context: context)
            await recorder.record(entry(refusal.status.code, refusal.code))
            throw error
        }
    }
}
