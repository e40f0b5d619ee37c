import Foundation
import LocationStore
import PostgresNIO

extension PostGISLocationStore: AccessLedger {
    public func insertAdminKey(_ key: AdminKey) async throws {
        // ON CONFLICT DO NOTHING, then a count: a unique violation would abort a caller's transaction.
        let inserted = try await rows(
            """
            INSERT INTO admin_keys (id, name, role, secret_sha256, created_at, revoked_at)
            VALUES (\(key.id), \(key.name), \(key.role.rawValue), \(key.secretSHA256), \(key.createdAt), \(key.revokedAt))
            ON CONFLICT DO NOTHING RETURNING id
            """)
        guard !inserted.isEmpty else { throw StoreError.conflict("an admin key with id '\(key.id)' or the same secret exists") }
    }

    public func adminKeys() async throws -> [AdminKey] {
        try await rows("SELECT id, name, role, secret_sha256, created_at, revoked_at FROM admin_keys ORDER BY created_at, id")
            .compactMap { row in
                let (id, name, role, hash, created, revoked) = try row.decode((String, String, String, String, Date, Date?).self)
                // A role this version does not know grants nothing rather than failing every listing.
                return AdminRole(rawValue: role).map {
                    AdminKey(id: id, name: name, role: $0, secretSHA256: hash, createdAt: created, revokedAt: revoked)
                }
            }
    }

    public func revokeAdminKey(id: String, at: Date) async throws -> AdminKey? {
        try await query("UPDATE admin_keys SET revoked_at = coalesce(revoked_at, \(at)) WHERE id = \(id)")
        return try await adminKeys().first { $0.id == id }
    }

    @discardableResult
    public func appendAudit(_ e: AuditEntry) async throws -> Int64 {
        try await rows(
            """
            INSERT INTO audit_log (at, key_id, action, target, result, detail)
            VALUES (\(e.at), \(e.keyId), \(e.action), \(e.target), \(e.result), \(e.detail)) RETURNING id
            """
        ).first?.decode(Int64.self) ?? 0
    }

    public func auditEntries(limit: Int, before: Int64?) async throws -> [AuditEntry] {
        try await rows(
            """
            SELECT id, at, key_id, action, target, result, detail FROM audit_log
            WHERE id < \(before ?? Int64.max) ORDER BY id DESC LIMIT \(Int64(limit))
            """
        ).map { row in
            let (id, at, key, action, target, result, detail) = try row.decode((Int64, Date, String, String, String, String, String?).self)
            return AuditEntry(id: id, at: at, keyId: key, action: action, target: target, result: result, detail: detail)
        }
    }

    public func pruneAudit(before cutoff: Date) async throws -> Int {
        let deleted = try await rows("WITH gone AS (DELETE FROM audit_log WHERE at < \(cutoff) RETURNING 1) SELECT count(*) FROM gone")
        return Int(try deleted.first?.decode(Int64.self) ?? 0)
    }
}
