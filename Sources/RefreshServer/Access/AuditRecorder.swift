import Foundation
import LocationStore
import Logging
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Writes audit entries to the store in the order they were recorded, and loses none of them.
///
/// While an import runs nothing is written to the store: a commit between an import's first read and its first write
/// would end SQLite's import with a busy snapshot, and would wait behind its write lock besides. An entry that cannot
/// be written at once is appended to this process's journal on disk (`AuditJournal`, flushed to the disk) before the
/// write it records is answered, and reaches the store once the import is done. A server that starts writes what a
/// stopped one left in its journal. When an entry can be neither written nor journaled, or too many wait, admin writes
/// are refused with 503 before they run (`isAccepting`).
///
/// Refusals are sampled (`AuditSampler`), texts are bounded (`AuditEntry.maxFieldLength`), and entries older than
/// the retention are pruned hourly, the prune itself logged as an entry of the key `server`.
final class AuditRecorder: Service, Sendable {
    private struct Queue {
        /// Entries not yet in the store, oldest first: their number in the order of recording, and whether the journal
        /// has them.
        var entries: [(number: UInt64, entry: AuditEntry, journaled: Bool)] = []
        var next: UInt64 = 1
        var sampler = AuditSampler()
    }

    private let queue = Mutex(Queue())
    /// This process's journal; nil when it could not be created (then an entry waits in memory only).
    private let journal: Mutex<AuditJournal?>
    /// One writer at a time, so that entries reach the store in the order they were recorded.
    private let writing = AsyncMutex()
    private let access: StoreAccess
    /// Held while an import or an edit runs.
    private let importRunning: ImportGate
    /// What entries are dated by, and what windows and the retention are measured on.
    let clock: ServerClock
    /// Days an entry is kept; 0 keeps every entry.
    let retentionDays: Int
    private let directory: String
    /// The store's name in journal names (`AuditJournal.storeTag`): only its own journals are written back.
    private let storeTag: String
    private let logger: Logger
    /// Past this many unwritten entries, admin writes are refused until the store takes them.
    static let pendingLimit = 100_000
    static let pruneInterval: Duration = .seconds(3_600)
    /// The key of what the server does of itself (a prune, a journal written back).
    static let serverKeyId = "server"

    init(access: StoreAccess, importRunning: ImportGate, clock: ServerClock, directory: String, retentionDays: Int, logger: Logger) {
        self.access = access
        self.importRunning = importRunning
        self.clock = clock
        self.retentionDays = retentionDays
        self.directory = directory
        self.logger = logger
        storeTag = AuditJournal.storeTag(access.primary)
        let journal = AuditJournal(directory: directory, storeTag: storeTag)
        if journal == nil {
            logger.error(
                "cannot create the audit journal; while an import runs, admin writes are refused", metadata: ["directory": "\(directory)"])
        }
        self.journal = Mutex(journal)
    }

    /// Whether an admin write may go ahead: its entry can be recorded, in the store or in the journal.
    var isAccepting: Bool {
        guard pendingCount < Self.pendingLimit else { return false }
        return journal.withLock { $0 != nil } || !importRunning.isOccupied
    }

    /// Records `entry` (or counts it, for a repeated refusal) and returns once it is durable: written to the store, or
    /// else to the journal. False when it could be neither (it then waits in memory, and the error is logged).
    @discardableResult
    func record(_ entry: AuditEntry) async -> Bool {
        let uptime = clock.uptime()
        let added = queue.withLock { queue in
            let admitted = queue.sampler.admit(entry, at: uptime) + queue.sampler.closeExpired(at: uptime)
            for entry in admitted {
                queue.entries.append((queue.next, entry, false))
                queue.next += 1
            }
            return admitted.count
        }
        guard added > 0 else { return true }
        if await flush() || journalPending() { return true }
        logger.error("an audit entry could be neither written nor journaled; it is kept in memory", metadata: ["entries": "\(pendingCount)"])
        return false
    }

    /// Appends the entries the journal does not have yet; false when there is no journal or the disk refused them.
    private func journalPending() -> Bool {
        journal.withLock { journal in
            guard let journal else { return false }
            let unjournaled = queue.withLock { $0.entries.filter { !$0.journaled }.map { AuditJournal.Line($0.number, $0.entry) } }
            guard journal.append(unjournaled) else { return false }
            let numbers = Set(unjournaled.compactMap(\.n))
            queue.withLock { queue in
                for i in queue.entries.indices where numbers.contains(queue.entries[i].number) { queue.entries[i].journaled = true }
            }
            return true
        }
    }

    /// Writes what is queued, oldest first; returns whether nothing is left.
    @discardableResult
    func flush() async -> Bool {
        await writing.withLock {
            let (batch, last) = queue.withLock { ($0.entries.map(\.entry), $0.entries.last?.number) }
            guard let last else { return true }
            // Not while an import or an edit writes; and none of them starts while this writes.
            guard importRunning.tryEnterForAudit() else { return false }
            defer { importRunning.leave() }
            do {
                try await access.withAudit { store in
                    let ledger = try AdminKeyRing.ledger(store)
                    try await store.transaction { for entry in batch { try await ledger.appendAudit(entry) } }
                }
            } catch {
                logger.warning(
                    "could not write the audit log yet; its entries are kept and written again",
                    metadata: ["entries": "\(batch.count)", "error": "\(error)"])
                return false
            }
            queue.withLock { $0.entries.removeAll { $0.number <= last } }
            journal.withLock { journal in
                guard let journal, journal.size > 0 else { return }
                if queue.withLock({ $0.entries.isEmpty }) { journal.clear() } else { _ = journal.append([.init(writtenThrough: last)]) }
            }
            return true
        }
    }

    var pendingCount: Int { queue.withLock { $0.entries.count } }

    func run() async throws {
        var orphansLeft = await writeOrphans()
        var delay = Duration.milliseconds(250)
        var nextPrune = clock.uptime()
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            let wait = delay
            guard (try? await cancelWhenGracefulShutdown({ try await self.clock.sleep(for: wait) })) != nil else { break }
            await waitForTheGate()
            await recordEndedWindows(all: false)
            if orphansLeft { orphansLeft = await writeOrphans() }
            if clock.uptime() >= nextPrune, await prune() { nextPrune = clock.uptime() + Self.pruneInterval }
            if pendingCount == 0 || importRunning.isOccupied { continue }
            delay = await flush() ? .milliseconds(250) : min(delay * 2, .seconds(5))
        }
        // At shutdown: the counted refusals, then one last try; what the store cannot take stays in the journal.
        await recordEndedWindows(all: true)
        if pendingCount > 0, !(await flush()) {
            if journalPending() {
                logger.warning(
                    "the server stopped with audit entries in its journal; the next server writes them", metadata: ["entries": "\(pendingCount)"])
            } else {
                logger.error("the server stopped with audit entries it could not write", metadata: ["entries": "\(pendingCount)"])
            }
        }
    }

    /// While an import or an edit holds the gate and entries wait: until it is freed, or a second passes (sampling
    /// windows still close on time while a long import runs).
    private func waitForTheGate() async {
        let seen = importRunning.freed.count
        guard pendingCount > 0, importRunning.isOccupied else { return }
        _ = await cancelWhenGracefulShutdown { await self.importRunning.freed.wait(past: seen, atMost: .seconds(1), clock: self.clock) }
    }

    /// The summaries of sampling windows that have passed.
    private func recordEndedWindows(all: Bool) async {
        let uptime = clock.uptime()
        let added = queue.withLock { queue in
            let summaries = queue.sampler.closeExpired(at: uptime, all: all)
            for entry in summaries {
                queue.entries.append((queue.next, entry, false))
                queue.next += 1
            }
            return summaries.count
        }
        if added > 0, !(await flush()) { _ = journalPending() }
    }

    /// Writes into the store the entries of journals no live server holds (a server that was killed), then removes
    /// them. An entry already in the store (the process died between its write and its journal's note of it) is not
    /// written twice. Returns whether some remain (the store could not take them yet).
    private func writeOrphans() async -> Bool {
        let own = journal.withLock { $0?.path }
        var remain = false
        for path in AuditJournal.others(in: directory, own: own, storeTag: storeTag) {
            guard let orphan = AuditJournal.orphan(at: path) else { continue }
            if !orphan.entries.isEmpty {
                guard importRunning.tryEnterForAudit() else {
                    remain = true
                    continue
                }
                defer { importRunning.leave() }
                let entries = orphan.entries
                do {
                    let written = try await access.withAudit { store in
                        let ledger = try AdminKeyRing.ledger(store)
                        let recent = try await ledger.auditEntries(limit: 1_000, before: nil)
                        let missing = entries.filter { entry in !recent.contains { Self.same($0, entry) } }
                        try await store.transaction { for entry in missing { try await ledger.appendAudit(entry) } }
                        return missing.count
                    }
                    logger.notice("wrote the audit entries a stopped server left in its journal", metadata: ["entries": "\(written)"])
                } catch {
                    logger.warning("could not write a stopped server's audit journal yet", metadata: ["error": "\(error)"])
                    remain = true
                    continue
                }
            }
            unlink(path)
            withExtendedLifetime(orphan.lock) {}
        }
        return remain
    }

    /// The same entry, as read back from the store (whose times keep milliseconds).
    private static func same(_ a: AuditEntry, _ b: AuditEntry) -> Bool {
        a.keyId == b.keyId && a.action == b.action && a.target == b.target && a.result == b.result && a.detail == b.detail
            && abs(a.at.timeIntervalSince(b.at)) < 0.001
    }

    /// Deletes the entries past the retention and logs how many went; false when it has to be tried again (an import
    /// held the store, or the store failed).
    private func prune() async -> Bool {
        guard retentionDays > 0 else { return true }
        let cutoff = clock.now().addingTimeInterval(-Double(retentionDays) * 86_400)
        guard importRunning.tryEnterForAudit() else { return false }
        let removed: Int
        do {
            removed = try await access.withAudit { try await AdminKeyRing.ledger($0).pruneAudit(before: cutoff) }
            importRunning.leave()
        } catch {
            importRunning.leave()
            logger.warning("could not prune the audit log", metadata: ["error": "\(error)"])
            return false
        }
        if removed > 0 {
            await record(
                AuditEntry(
                    at: clock.now(), keyId: Self.serverKeyId, action: "audit prune", target: "audit_log", result: "ok",
                    detail: "removed \(removed) entries dated before \(cutoff.formatted(.iso8601)) (--audit-retention-days \(retentionDays))"))
        }
        return true
    }
}

/// A lock held across suspension points: one holder at a time, the others wait in order.
final class AsyncMutex: Sendable {
    private let state = Mutex<(held: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func withLock<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { s -> Bool in
                if !s.held {
                    s.held = true
                    return true
                }
                s.waiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            if s.waiters.isEmpty {
                s.held = false
                return nil
            }
            return s.waiters.removeFirst()
        }
        next?.resume()
    }
}
