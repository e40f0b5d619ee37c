import Foundation
import LocationStore
import Logging
import ServiceLifecycle
import Synchronization

/// Writes audit entries to the store in the order they were recorded, and keeps those it cannot write yet, so that
/// the log of what an admin did loses no entry to a busy or unreachable store. While an import runs nothing is written:
/// a commit between an import's first read and its first write would end SQLite's import with a busy snapshot, and
/// would wait behind its write lock besides. What waits is kept in memory (up to `pendingLimit` entries) and written
/// by the service loop once the import is done (retried with backoff after a failure), and before the log is read
/// (`flush`).
final class AuditRecorder: Service, Sendable {
    /// Entries not yet written, oldest first, each with its number in the order of recording.
    private let pending = Mutex<(entries: [(number: UInt64, entry: AuditEntry)], next: UInt64)>(([], 0))
    /// One writer at a time, so that entries reach the store in the order they were recorded.
    private let writing = AsyncMutex()
    private let access: StoreAccess
    /// Held while an import runs.
    private let importRunning: ImportRoute.Gate
    /// What entries are dated by.
    let clock: ServerClock
    private let logger: Logger
    static let pendingLimit = 10_000

    init(access: StoreAccess, importRunning: ImportRoute.Gate, clock: ServerClock, logger: Logger) {
        self.access = access
        self.importRunning = importRunning
        self.clock = clock
        self.logger = logger
    }

    /// Queues `entry` and writes everything queued; on failure the entries stay queued for the service loop.
    func record(_ entry: AuditEntry) async {
        let dropped = pending.withLock { queue -> Int in
            queue.entries.append((queue.next, entry))
            queue.next += 1
            let excess = max(0, queue.entries.count - Self.pendingLimit)
            queue.entries.removeFirst(excess)
            return excess
        }
        if dropped > 0 {
            logger.error(
                "the audit log could not be written for too long; its oldest unwritten entries were dropped", metadata: ["dropped": "\(dropped)"])
        }
        _ = await flush()
    }

    /// Writes what is queued, oldest first; returns whether nothing is left.
    @discardableResult
    func flush() async -> Bool {
        await writing.withLock {
            let batch = pending.withLock { $0.entries }
            guard let last = batch.last?.number else { return true }
            // Not while an import or an edit writes; and none of them starts while this writes.
            guard importRunning.tryEnterForAudit() else { return false }
            defer { importRunning.leave() }
            do {
                try await access.withAudit { store in
                    let ledger = try AdminKeyRing.ledger(store)
                    try await store.transaction { for (_, entry) in batch { try await ledger.appendAudit(entry) } }
                }
            } catch {
                logger.warning(
                    "could not write the audit log yet; its entries are kept and written again",
                    metadata: ["entries": "\(batch.count)", "error": "\(error)"])
                return false
            }
            // By number: entries dropped meanwhile (a full queue) must not shift which ones count as written.
            pending.withLock { $0.entries.removeAll { $0.number <= last } }
            return true
        }
    }

    var pendingCount: Int { pending.withLock { $0.entries.count } }

    func run() async throws {
        var delay = Duration.milliseconds(250)
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            let wait = delay
            guard (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: wait) })) != nil else { break }
            // Nothing to write, or an import to wait for: look again at the short interval.
            if pendingCount == 0 || importRunning.isOccupied { continue }
            delay = await flush() ? .milliseconds(250) : min(delay * 2, .seconds(5))
        }
        // At shutdown: one last try, so that a clean stop loses nothing it can write.
        if pendingCount > 0, !(await flush()) {
            logger.error("the server stopped with audit entries it could not write", metadata: ["entries": "\(pendingCount)"])
        }
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
