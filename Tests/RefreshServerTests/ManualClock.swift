import Foundation
import Synchronization

@testable import RefreshServer

/// A server clock that moves only when the test moves it: the calendar and the monotonic count step together.
///
/// Its sleeps either wait for the test to move the clock past them (`.manual`: a reload's backoff or a poll's interval
/// passes at `advance(by:)`, in no real time) or pass in real time (`.real`: a whole server whose readings the test
/// sets, but whose background work should go on as usual).
final class ManualClock: Sendable {
    enum Waits: Sendable {
        case manual, real
    }

    private struct Sleeper {
        let deadline: Duration
        let wake: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var date: Date
        var uptime = Duration.seconds(1_000)
        var sleepers: [Int: Sleeper] = [:]
        var nextId = 0
        /// Every sleep asked for, in order: what a test checks a backoff by.
        var asked: [Duration] = []
    }

    private let state: Mutex<State>
    private let waits: Waits

    init(at date: Date, waits: Waits = .real) {
        state = Mutex(State(date: date))
        self.waits = waits
    }

    var date: Date { state.withLock { $0.date } }
    var uptime: Duration { state.withLock { $0.uptime } }

    /// The durations of every sleep begun so far.
    var sleepsAsked: [Duration] { state.withLock { $0.asked } }

    /// Sleeps not yet woken.
    var pendingWakeups: Int { state.withLock { $0.sleepers.count } }

    func advance(seconds: Int) { advance(by: .seconds(seconds)) }

    /// Moves both readings forward and wakes every sleep whose time has come.
    func advance(by duration: Duration) {
        let due = state.withLock { s -> [Sleeper] in
            s.date += duration.inSeconds
            s.uptime += duration
            let due = s.sleepers.filter { $0.value.deadline <= s.uptime }
            for id in due.keys { s.sleepers[id] = nil }
            return Array(due.values)
        }
        for sleeper in due { sleeper.wake.resume() }
    }

    var server: ServerClock {
        ServerClock(
            now: { self.state.withLock { $0.date } }, uptime: { self.state.withLock { $0.uptime } },
            sleep: { try await self.sleep(for: $0) })
    }

    private func sleep(for duration: Duration) async throws {
        if waits == .real {
            state.withLock { $0.asked.append(duration) }
            try await Task.sleep(for: duration)
            return
        }
        let id = state.withLock { s in
            s.nextId += 1
            return s.nextId
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (wake: CheckedContinuation<Void, any Error>) in
                let now = state.withLock { s -> Bool in
                    s.asked.append(duration)
                    if duration <= .zero || Task.isCancelled { return true }
                    s.sleepers[id] = Sleeper(deadline: s.uptime + duration, wake: wake)
                    return false
                }
                if now {
                    if Task.isCancelled { wake.resume(throwing: CancellationError()) } else { wake.resume() }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.wake.resume(throwing: CancellationError())
        }
    }

    /// Waits (in real time, briefly) until `condition` holds: what a test does between moving the clock and looking,
    /// as the task the clock woke runs on another thread.
    func until(timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
        let end = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now > end { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }
}
