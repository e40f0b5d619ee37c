import Synchronization

/// Callers of `IndexReloader.reloadAndWait`, each resumed as soon as an index that answers its ask is serving, or with
/// false when its time is up. Asks are numbered in order; a rebuild answers every ask made before it began.
final class ReloadWaiters: Sendable {
    private struct Waiter {
        let ticket: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var answered = 0
        var nextId = 0
        var waiting: [Int: Waiter] = [:]
    }

    private let state = Mutex(State())
    /// What a waiter's time limit is measured on.
    private let clock: ServerClock

    init(clock: ServerClock) { self.clock = clock }

    /// Waits until asks up to `ticket` are answered (true) or `timeout` has passed (false).
    func wait(for ticket: Int, timeout: Duration) async -> Bool {
        let id = state.withLock { s in
            s.nextId += 1
            return s.nextId
        }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let answeredAlready = self.state.withLock { s in
                        if s.answered >= ticket { return true }
                        s.waiting[id] = Waiter(ticket: ticket, continuation: continuation)
                        return false
                    }
                    if answeredAlready { continuation.resume(returning: true) }
                }
            }
            group.addTask {
                // Cancelled when the answer came first; either way the waiter is let go (a no-op if it already was).
                try? await self.clock.sleep(for: timeout)
                self.resume(id, with: false)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// Every ask up to `covered` is answered by the index now serving.
    func answer(upTo covered: Int) {
        let ready = state.withLock { s -> [Waiter] in
            s.answered = max(s.answered, covered)
            let due = s.waiting.filter { $0.value.ticket <= covered }
            for id in due.keys { s.waiting[id] = nil }
            return Array(due.values)
        }
        for waiter in ready { waiter.continuation.resume(returning: true) }
    }

    private func resume(_ id: Int, with value: Bool) {
        let waiter = state.withLock { $0.waiting.removeValue(forKey: id) }
        waiter?.continuation.resume(returning: value)
    }
}
