import Foundation

/// Admin keys and the audit log of admin writes, kept in the store so that every replica of a server sees one set of
/// keys and one history: both stores keep them.
public protocol AccessLedger: AnyObject {
    /// Adds a key; throws `StoreError.conflict` when its id or its secret's hash is taken.
    func insertAdminKey(_ key: AdminKey) async throws
    /// Every key, revoked ones included, oldest first.
    func adminKeys() async throws -> [AdminKey]
    /// Marks a key revoked at `at`; returns the key as it now stands, nil when there is no such key. Revoking a revoked
    /// key keeps its first revocation time.
    func revokeAdminKey(id: String, at: Date) async throws -> AdminKey?
    /// Appends an entry; returns its id.
    @discardableResult
    func appendAudit(_ entry: AuditEntry) async throws -> Int64
    /// The newest `limit` entries, or the newest with an id below `before`, newest first.
    func auditEntries(limit: Int, before: Int64?) async throws -> [AuditEntry]
    /// Deletes the entries dated before `cutoff` (the retention); returns how many.
    func pruneAudit(before cutoff: Date) async throws -> Int
}
