import Foundation
import LocationStore
import Testing

/// Admin keys and the audit log behave the same in both stores: keys round-trip without their secret, ids and secrets
/// stay unique, a revocation keeps its first time, and the log pages back in time without gaps or repeats.
@Suite("Access ledger (SQLite and PostGIS)")
struct AccessLedgerConformanceTests {
    static let created = Date(timeIntervalSince1970: 1_790_000_000)

    static func key(_ id: String, role: AdminRole, hash: String) -> AdminKey {
        AdminKey(id: id, name: "holder of \(id)", role: role, secretSHA256: hash, createdAt: created)
    }

    @Test("keys round-trip, stay unique by id and by secret, and a revocation keeps its first time", arguments: TestStore.kinds)
    func keys(kind: StoreKind) async throws {
        try await TestStore.with(kind) { store, _ in
            let ledger = try #require(store as? any AccessLedger)
            #expect(try await ledger.adminKeys().isEmpty)
            let reader = Self.key("k_reader", role: .read, hash: String(repeating: "a", count: 64))
            let admin = Self.key("k_admin", role: .admin, hash: String(repeating: "b", count: 64))
            try await ledger.insertAdminKey(reader)
            try await ledger.insertAdminKey(admin)
            #expect(Set(try await ledger.adminKeys()) == [reader, admin])

            await #expect(throws: StoreError.self) { try await ledger.insertAdminKey(Self.key("k_reader", role: .admin, hash: "c")) }
            await #expect(throws: StoreError.self) {
                try await ledger.insertAdminKey(Self.key("k_other", role: .admin, hash: reader.secretSHA256))
            }
            #expect(try await ledger.adminKeys().count == 2)

            let first = Self.created.addingTimeInterval(60)
            let revoked = try #require(try await ledger.revokeAdminKey(id: "k_reader", at: first))
            #expect(revoked.revokedAt == first && revoked.role == .read)
            let again = try #require(try await ledger.revokeAdminKey(id: "k_reader", at: first.addingTimeInterval(60)))
            #expect(again.revokedAt == first)
            #expect(try await ledger.revokeAdminKey(id: "k_missing", at: first) == nil)
            #expect(try await ledger.adminKeys().first { $0.id == "k_admin" }?.isRevoked == false)
        }
    }

    @Test("the audit log pages newest first, each entry whole, none twice and none missed", arguments: TestStore.kinds)
    func auditPages(kind: StoreKind) async throws {
        try await TestStore.with(kind) { store, _ in
            let ledger = try #require(store as? any AccessLedger)
            var written: [AuditEntry] = []
            for i in 0..<7 {
                var entry = AuditEntry(
                    at: Self.created.addingTimeInterval(Double(i)), keyId: i % 2 == 0 ? "bootstrap" : "k_x",
                    action: "POST /admin/networks/{id}/merge", target: "/admin/networks/n\(i)/merge", result: i == 3 ? "409" : "200",
                    detail: i == 3 ? "import_running" : nil)
                entry.id = try await ledger.appendAudit(entry)
                written.append(entry)
            }
            #expect(Set(written.compactMap(\.id)).count == 7)
            var read: [AuditEntry] = []
            var cursor: Int64?
            repeat {
                let page = try await ledger.auditEntries(limit: 3, before: cursor)
                read += page
                cursor = page.count == 3 ? page.last?.id : nil
            } while cursor != nil
            #expect(read == written.reversed())
        }
    }
}
