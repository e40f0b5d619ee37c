import Foundation
import LocationStore

extension SQLiteLocationStore: AccessLedger {
    public func insertAdminKey(_ key: AdminKey) throws {
        try writeTransaction {
            let taken = try db.statement("SELECT 1 FROM admin_keys WHERE id = ?1 OR secret_sha256 = ?2")
            taken.bind(1, key.id)
            taken.bind(2, key.secretSHA256)
            defer { taken.reset() }
            if try taken.step() { throw StoreError.conflict("an admin key with id '\(key.id)' or the same secret exists") }
            let s = try db.statement(
                "INSERT INTO admin_keys (id, name, role, secret_sha256, created_at, revoked_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
            s.bind(1, key.id)
            s.bind(2, key.name)
            s.bind(3, key.role.rawValue)
            s.bind(4, key.secretSHA256)
            s.bind(5, Self.timestamp(key.createdAt))
            s.bind(6, key.revokedAt.map { Self.timestamp($0) })
            try s.step()
        }
    }

    public func adminKeys() throws -> [AdminKey] {
        let s = try db.statement("SELECT id, name, role, secret_sha256, created_at, revoked_at FROM admin_keys ORDER BY created_at, id")
        defer { s.reset() }
        var keys: [AdminKey] = []
        while try s.step() {
            // A role this version does not know grants nothing rather than failing every listing.
            guard let role = AdminRole(rawValue: s.text(2)) else { continue }
            keys.append(
                AdminKey(
                    id: s.text(0), name: s.text(1), role: role, secretSHA256: s.text(3),
                    createdAt: Self.parseTimestamp(s.text(4)) ?? Date(timeIntervalSince1970: 0),
                    revokedAt: s.optionalText(5).map { Self.parseTimestamp($0) ?? Date(timeIntervalSince1970: 0) }))
        }
        return keys
    }

    public func revokeAdminKey(id: String, at: Date) throws -> AdminKey? {
        try writeTransaction {
            let s = try db.statement("UPDATE admin_keys SET revoked_at = coalesce(revoked_at, ?2) WHERE id = ?1")
            s.bind(1, id)
            s.bind(2, Self.timestamp(at))
            try s.step()
            return try adminKeys().first { $0.id == id }
        }
    }

    @discardableResult
    public func appendAudit(_ entry: AuditEntry) throws -> Int64 {
        try writeTransaction {
            let s = try db.statement(
                "INSERT INTO audit_log (at, key_id, action, target, result, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
            s.bind(1, Self.timestamp(entry.at))
            s.bind(2, entry.keyId)
            s.bind(3, entry.action)
            s.bind(4, entry.target)
            s.bind(5, entry.result)
            s.bind(6, entry.detail)
            try s.step()
            return db.lastInsertRowID
        }
    }

    public func auditEntries(limit: Int, before: Int64?) throws -> [AuditEntry] {
        let s = try db.statement(
            "SELECT id, at, key_id, action, target, result, detail FROM audit_log WHERE id < ?1 ORDER BY id DESC LIMIT ?2")
        s.bind(1, before ?? Int64.max)
        s.bind(2, limit)
        defer { s.reset() }
        var entries: [AuditEntry] = []
        while try s.step() {
            entries.append(
                AuditEntry(
                    id: s.int64(0), at: Self.parseTimestamp(s.text(1)) ?? Date(timeIntervalSince1970: 0), keyId: s.text(2),
                    action: s.text(3), target: s.text(4), result: s.text(5), detail: s.optionalText(6)))
        }
        return entries
    }

    public func pruneAudit(before cutoff: Date) throws -> Int {
        try writeTransaction {
            // Times are ISO 8601 in UTC with fractional seconds: their text sorts as they do.
            let s = try db.statement("DELETE FROM audit_log WHERE at < ?1")
            s.bind(1, Self.timestamp(cutoff))
            try s.step()
            return db.changes
        }
    }
}
