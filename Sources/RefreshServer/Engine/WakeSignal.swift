import Synchronization

/// Something one task waits for and another announces: the import gate freed, for the audit writer.
///
/// Each signal raises a count; a waiter says which count it last saw, so a signal sent between its look and its wait
/// is not missed. A wait is bounded by the server's clock, so whoever waits still gets to its other work.
final class WakeSignal: Sendable {
    private struct State {
        var count = 0
        var nextId = 0
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// Signals so far: what a waiter passes to `wait(past:atMost:clock:)`.
    var count: Int { state.withLock { $0.count } }

    /// Wakes every waiter.
    func signal() {
        let woken = state.withLock { s in
            s.count += 1
            defer { s.waiting = [:] }
            return Array(s.waiting.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns once a signal after `seen` has been sent (true), or after `limit` on `clock` or when the task is
    /// cancelled (false).
    @discardableResult
    func wait(past seen: Int, atMost limit: Duration, clock: ServerClock) async -> Bool {
        let id = state.withLock { s in
            s.nextId += 1
            return s.nextId
        }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        let already = self.state.withLock { s in
                            if s.count > seen || Task.isCancelled { return true }
                            s.waiting[id] = continuation
                            return false
                        }
                        if already { continuation.resume() }
                    }
                } onCancel: {
                    self.state.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
                }
                return self.count > seen
            }
            group.addTask {
                try? await clock.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
