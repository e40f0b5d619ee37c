import Foundation
import Synchronization
import TestSupport
import Testing

@testable import RefreshServer

/// The server's own threads for blocking work, and how a caller waits for an index generation.
// On threads of their own, and the jobs below started on the executors they test: nothing here waits for Swift's
// cooperative pool, which the rest of the suite may keep busy for longer than any wait below.
@Suite("Owned executors and reload waits", .blocking)
struct ServerExecutorsTests {
    /// One server's rebuild held by a long job does not hold another server's: each has threads of its own (with the
    /// shared static executor of before, the second job waited for the first).
    @Test func aServerDoesNotQueueBehindAnotherServersWork() async throws {
        let first = ServerExecutors()
        let second = ServerExecutors()
        let gate = Gate()
        defer { gate.open() }
        let started = Gate()
        let held = Task(executorPreference: first.rebuilds) {
            try await first.rebuilds.run {
                started.open()
                gate.wait()
            }
        }
        #expect(try await eventually { started.isOpened }, "the first server's job never started")
        let finished = Gate()
        let other = Task(executorPreference: second.rebuilds) {
            try await second.rebuilds.run {
                await Task.yield()
                finished.open()
            }
        }
        #expect(try await eventually { finished.isOpened }, "the second server's job waited for the first's")
        gate.open()
        try await held.value
        try await other.value
    }

    /// An executor is freed with its server (its thread then ends: its queue is closed on deinit).
    @Test func aReleasedServersExecutorsAreFreed() async throws {
        var executors: ServerExecutors? = ServerExecutors()
        weak let rebuilds = executors?.rebuilds
        _ = try await executors?.rebuilds.run { await Task.yield() }
        executors = nil
        #expect(try await eventually { rebuilds == nil }, "the executor outlived its server")
    }

    @Test func aWaiterIsResumedByTheAnswerThatCoversItsTicket() async throws {
        let waiters = ReloadWaiters(clock: .system)
        let early = Task { await waiters.wait(for: 1, timeout: .seconds(600)) }
        let late = Task { await waiters.wait(for: 3, timeout: .seconds(600)) }
        waiters.answer(upTo: 1)
        #expect(await early.value)
        waiters.answer(upTo: 3)
        #expect(await late.value)
        // Asked after its answer came: true at once.
        #expect(await waiters.wait(for: 2, timeout: .seconds(600)))
    }

    @Test func aWaiterWithoutAnAnswerGivesUpAtItsTimeout() async throws {
        // The real clock: this suite waits on no task of the cooperative pool, which the rest of the suite may keep busy.
        let waiters = ReloadWaiters(clock: .system)
        let started = ContinuousClock.now
        #expect(await waiters.wait(for: 1, timeout: .milliseconds(50)) == false)
        #expect(ContinuousClock.now - started >= .milliseconds(50))
        // A later answer finds no one waiting and is kept for the next ask.
        waiters.answer(upTo: 1)
        #expect(await waiters.wait(for: 1, timeout: .seconds(600)))
    }
}
