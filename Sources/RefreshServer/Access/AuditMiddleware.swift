import Foundation
import Hummingbird
import LocationStore
import Logging

/// Records every admin write (any method but GET and HEAD) in the store's audit log once it has been answered: the key
/// that acted, the route and the path it acted on, and the status it got, refusals included. Runs after
/// `AdminAuthMiddleware`, so unauthenticated requests (which name no key) are not recorded; the request log has them.
struct AuditMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let access: StoreAccess

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .get, request.method != .head, let principal = context.admin else {
            return try await next(request, context)
        }
        let entry = { (status: Int, detail: String?) in
            AuditEntry(
                at: Date(), keyId: principal.keyId, action: "\(request.method.rawValue) \(context.endpointPath ?? request.uri.path)",
                target: request.uri.path, result: String(status), detail: detail)
        }
        do {
            let response = try await next(request, context)
            await record(entry(response.status.code, response.headers[.location].map { "see \($0)" }), context: context)
            return response
        } catch {
            let refusal = ErrorMiddleware.apiError(for: error, request: request, context: context)
            await record(entry(refusal.status.code, refusal.code), context: context)
            throw error
        }
    }

    /// Appends the entry; a failure to record is logged, not turned into a failure of a write that already happened.
    private func record(_ entry: AuditEntry, context: Context) async {
        do {
            _ = try await access.withPrimary { store in try await AdminKeyRing.ledger(store).appendAudit(entry) }
        } catch {
            context.logger.error(
                "could not record an admin write in the audit log",
                metadata: ["action": "\(entry.action)", "key": "\(entry.keyId)", "error": "\(error)"])
        }
    }
}
