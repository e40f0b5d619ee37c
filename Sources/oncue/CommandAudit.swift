import Foundation
import LocationStore

/// The audit log's entries of the command line's data writes, as the key `cli`: an admin who imports or deletes from a
/// shell leaves the same trail as one who does it through /admin/*.
///
/// A write that succeeds commits with its entry (one transaction: neither without the other); one that fails is logged
/// after its rollback, as `failed` with the reason's first words. A store that keeps no audit log (none does not, today)
/// is written without one.
enum CommandAudit {
    static let keyId = "cli"

    /// Runs `body` in a transaction of `store` and appends its entry before the commit.
    static func recorded<T: Sendable>(
        _ store: any LocationStore, action: String, target: String, detail: (T) -> String? = { _ in nil }, failed: (T) -> Bool = { _ in false },
        _ body: () async throws -> T
    ) async throws -> T {
        guard let ledger = store as? any AccessLedger else { return try await body() }
        do {
            return try await store.transaction {
                let result = try await body()
                try await ledger.appendAudit(entry(action, target, result: failed(result) ? "failed" : "ok", detail: detail(result)))
                return result
            }
        } catch {
            _ = try? await ledger.appendAudit(entry(action, target, result: "failed", detail: String(describing: error)))
            throw error
        }
    }

    /// The entry of a command's write.
    static func entry(_ action: String, _ target: String, result: String, detail: String? = nil) -> AuditEntry {
        AuditEntry(at: Date(), keyId: keyId, action: action, target: target, result: result, detail: detail)
    }
}
