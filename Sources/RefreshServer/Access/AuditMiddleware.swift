import Foundation
import Hummingbird
import LocationStore
import Logging

/// Records every admin write (any method but GET and HEAD) in the store's audit log once it has been answered: the key
/// that acted, the route and the path it acted on, and the status it got, refusals included. Runs after
/// `AdminAuthMiddleware`, so unauthenticated requests (which name no key) are not recorded; the request log has them.
struct AuditMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let recorder: AuditRecorder

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .get, request.method != .head, let principal = context.admin else {
            return try await next(request, context)
        }
        let entry = { (status: Int, detail: String?) in
            AuditEntry(
                at: recorder.clock.now(), keyId: principal.keyId, action: "\(request.method.rawValue) \(context.endpointPath ?? request.uri.path)",
                target: request.uri.path, result: String(status), detail: detail)
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
