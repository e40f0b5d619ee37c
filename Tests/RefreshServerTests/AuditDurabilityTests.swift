import Foundation
import HTTPTypes
import LocationStore
import SQLiteStore
import TestSupport
import Testing

@testable import RefreshServer

/// The audit log loses nothing and cannot be flooded: an entry that waits for an import is on disk before its write is
/// answered, a stopped server's journal reaches the store at the next start, refusals are counted rather than stored
/// one row each, texts are bounded, old entries are pruned, and a write whose entry cannot be recorded is refused.
@Suite("Audit log: nothing lost, nothing flooded")
struct AuditDurabilityTests {
    static let holder = ImportGate.Holder(kind: .import, keyId: "test", since: Date())

    /// Every entry of the log, newest first (through the store, which the API's listing reads).
    static func entries(_ store: TestStore) throws -> [AuditEntry] {
        try SQLiteLocationStore(path: store.path).auditEntries(limit: 100_000, before: nil)
    }

    static func journals(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix(AuditJournal.filePrefix) }
            .map { (directory as NSString).appendingPathComponent($0) }
    }

    @Test("the probe's sequence: a key made while an import holds the store survives 10,050 refusals, and the refusals are a few rows")
    func probeSequence() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let temporary = store.directory.appendingPathComponent("tmp").path
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let configure: (inout ServerConfiguration) -> Void = {
            $0.temporaryDirectory = temporary
            $0.rateLimitRequestsPerSecond = 0
        }
        try await withServer(store: store, configure: configure) { client, built in
            let reader = try await AdminRoleTests.makeKey(client, role: .read)
            let before = try Self.entries(store).count
            // An import holds the store's writer, as the probe's slow upload once did.
            #expect(await built.importGate.enter(Self.holder) == nil)
            let backdoor = try await client.send(.post, "/admin/keys", headers: .admin, body: #"{"name": "backdoor", "role": "admin"}"#)
            #expect(backdoor.status == 201, "\(backdoor.text)")
            let backdoorId = try #require(backdoor.json?["id"]?.string)
            // Answered only once the journal has it on disk.
            let journaled = Self.journals(in: temporary).compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }.joined()
            #expect(journaled.contains(backdoorId), "the key's entry is not in the journal while the import runs")
            try await withThrowingTaskGroup(of: Int.self) { group in
                for batch in 0..<50 {
                    group.addTask {
                        var refused = 0
                        for i in 0..<201 where batch * 201 + i < 10_050 {
                            let reply = try await client.send(
                                .patch, "/admin/networks/x", route: "/admin/networks/{id}", headers: [.authorization: "Bearer \(reader.token)"],
                                body: #"{"name": "X"}"#)
                            if reply.status == 403 { refused += 1 }
                        }
                        return refused
                    }
                }
                var refused = 0
                for try await count in group { refused += count }
                #expect(refused == 10_050)
            }
            built.importGate.leave()
            #expect(await built.audit.flush())
            let entries = try Self.entries(store)
            #expect(entries.contains { $0.action == "POST /admin/keys" && $0.result == "201" && $0.detail == "see /admin/keys/\(backdoorId)" })
            // The first refusal in full; the rest are counted in the summary written when their minute has passed.
            let refusals = entries.filter { $0.keyId == reader.id }
            // (A second window opens only if the 10,050 took more than a minute.)
            #expect(refusals.count <= 3, "\(refusals.count) rows for 10,050 refusals")
            #expect(entries.count - before <= 4)
            // Every entry reached the store: the journal is empty again.
            #expect(Self.journals(in: temporary).allSatisfy { (try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) == 0 })
        }
    }

    @Test("ten minutes of refused requests from one key add a bounded number of rows, and every refusal is counted")
    func floodIsBounded() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let clock = ManualClock(at: ServerClockTests.future)
        let configure: (inout ServerConfiguration) -> Void = { $0.rateLimitRequestsPerSecond = 0 }
        try await withServer(store: store, clock: clock.server, configure: configure) { client, built in
            let reader = try await AdminRoleTests.makeKey(client, role: .read)
            let path = "/admin/locations/" + String(repeating: "A", count: 2_000)
            for _ in 0..<600 {
                for _ in 0..<2 {
                    let reply = try await client.send(
                        .delete, path, route: "/admin/locations/{id}", headers: [.authorization: "Bearer \(reader.token)"])
                    #expect(reply.status == 403)
                }
                clock.advance(seconds: 1)
            }
            // One more minute for the last window to close.
            clock.advance(seconds: 61)
            let last = try await client.send(.delete, path, route: "/admin/locations/{id}", headers: [.authorization: "Bearer \(reader.token)"])
            #expect(last.status == 403)
            #expect(await built.audit.flush())
            let rows = try Self.entries(store).filter { $0.keyId == reader.id }
            // Two rows a minute at most: the first of each window and its count.
            #expect(rows.count <= 2 * 11 + 1, "\(rows.count) rows")
            // A summary says how many more; every other row is one refusal.
            let counted = rows.reduce(0) { total, row in
                guard let detail = row.detail, detail.contains("more like it"), let more = Int(detail.prefix { $0.isNumber }) else {
                    return total + 1
                }
                return total + more
            }
            #expect(counted == 1_201, "the rows account for \(counted) refusals")
            // Bounded texts: the 2,017-character path is stored cut.
            #expect(rows.allSatisfy { $0.target.count <= AuditEntry.maxFieldLength && $0.target.hasSuffix("…") })
        }
    }

    @Test("a journal a killed server left is written at the next start, each entry once")
    func orphanedJournalIsWritten() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let temporary = store.directory.appendingPathComponent("tmp").path
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let at = Date(timeIntervalSince1970: 1_900_000_000)
        let entries = (1...3).map {
            AuditEntry(at: at + Double($0), keyId: "k_dead", action: "POST /admin/keys", target: "/admin/keys", result: "201", detail: "n\($0)")
        }
        // Entry 1 was written and noted; entry 2 was written before the process died, not yet noted; entry 3 was only journaled.
        _ = try SQLiteLocationStore(path: store.path).appendAudit(entries[0])
        _ = try SQLiteLocationStore(path: store.path).appendAudit(entries[1])
        let encoder = JSONEncoder()
        let lines = [
            AuditJournal.Line(1, entries[0]), AuditJournal.Line(writtenThrough: 1), AuditJournal.Line(2, entries[1]),
            AuditJournal.Line(3, entries[2]),
        ]
        let text = try lines.map { String(decoding: try encoder.encode($0), as: UTF8.self) }.joined(separator: "\n") + "\n{\"n\":4,\"at\":"
        let tag = AuditJournal.storeTag(.file(store.path))
        let path = (temporary as NSString).appendingPathComponent(AuditJournal.fileName(storeTag: tag, id: "dead"))
        // A journal of another store in the same directory is not this server's to write.
        let foreign = (temporary as NSString).appendingPathComponent(AuditJournal.fileName(storeTag: "0123456789abcdef", id: "other"))
        try text.write(toFile: foreign, atomically: true, encoding: .utf8)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let configure: (inout ServerConfiguration) -> Void = { $0.temporaryDirectory = temporary }
        try await withServer(store: store, configure: configure) { _, _ in
            let written = try await eventually(within: .seconds(120)) { !FileManager.default.fileExists(atPath: path) }
            #expect(written, "the orphaned journal is still there")
            let logged = try Self.entries(store).filter { $0.keyId == "k_dead" }.compactMap(\.detail).sorted()
            // The cut last line was never acknowledged; the others are there once each.
            #expect(logged == ["n1", "n2", "n3"])
            #expect(FileManager.default.fileExists(atPath: foreign))
        }
    }

    @Test("entries older than the retention are pruned, and the prune is an entry of its own")
    func retentionPrunes() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let clock = ManualClock(at: ServerClockTests.future)
        let ledger = try SQLiteLocationStore(path: store.path)
        for days in [500.0, 450, 10] {
            _ = try ledger.appendAudit(
                AuditEntry(
                    at: ServerClockTests.future - days * 86_400, keyId: "old", action: "POST /admin/keys", target: "/admin/keys", result: "201",
                    detail: "\(Int(days)) days"))
        }
        let temporary = store.directory.appendingPathComponent("tmp").path
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let configure: (inout ServerConfiguration) -> Void = {
            $0.auditRetentionDays = 400
            $0.temporaryDirectory = temporary
        }
        try await withServer(store: store, clock: clock.server, configure: configure) { _, _ in
            let pruned = try await eventually(within: .seconds(120)) { try Self.entries(store).contains { $0.action == "audit prune" } }
            #expect(pruned)
            let entries = try Self.entries(store)
            #expect(entries.filter { $0.keyId == "old" }.compactMap(\.detail) == ["10 days"])
            let prune = try #require(entries.first { $0.action == "audit prune" })
            #expect(prune.keyId == "server" && prune.detail?.hasPrefix("removed 2 entries dated before") == true, "\(prune)")
        }
    }

    @Test("with no journal and an import holding the store, an admin write is refused with 503 before it runs")
    func unrecordableWritesAreRefused() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let missing = store.directory.appendingPathComponent("no-such-directory").path
        let configure: (inout ServerConfiguration) -> Void = { $0.temporaryDirectory = missing }
        try await withServer(store: store, configure: configure) { client, built in
            #expect(await built.importGate.enter(Self.holder) == nil)
            let refused = try await client.send(.post, "/admin/keys", headers: .admin, body: #"{"name": "while busy", "role": "read"}"#)
            #expect(refused.status == 503 && refused.json?["error"]?.string == "audit_unavailable", "\(refused.text)")
            built.importGate.leave()
            let keys = try SQLiteLocationStore(path: store.path).adminKeys()
            #expect(!keys.contains { $0.name == "while busy" })
            // Once the store is free again, writes go straight to it.
            let made = try await client.send(.post, "/admin/keys", headers: .admin, body: #"{"name": "after", "role": "read"}"#)
            #expect(made.status == 201)
            #expect(try Self.entries(store).contains { $0.action == "POST /admin/keys" && $0.result == "201" })
        }
    }
}
