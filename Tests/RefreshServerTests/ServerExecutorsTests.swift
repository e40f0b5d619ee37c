import Foundation
import Synchronization
import TestSupport
import Testing

@testable import RefreshServer

/// The server's own threads for blocking work, and how a caller waits for an index generation.
@Suite("Owned executors and reload waits")
struct ServerExecutorsTests {
    /// This process's threads named `name` (Linux names threads in /proc/self/task/*/comm).
    static func threads(named name: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return comm.trimmingCharacters(in: .whitespacesAndNewlines) == name
        }.count
    }

    /// The name of the thread this runs on (a synchronous function: `Thread.current` is not read from async code).
    static func threadName() -> String { Thread.current.name ?? "" }

    @Test func twoServersDoNotShareAThreadAndAReleasedServersThreadsEnd() async throws {
        // A name no other test's server uses, so that servers running beside this test do not change the count.
        let name = "oncue-t\(UInt16.random(in: 0...UInt16.max))"
        var first: BlockingWorkExecutor? = BlockingWorkExecutor(name: name)
        let second = BlockingWorkExecutor(name: name)
        let gate = Gate()
        // The first executor's thread is held; the second still runs its work.
        let held = Task { [first] in try await first?.run { gate.wait() } }
        let ranOnSecond = try await second.run { Self.threadName() }
        #expect(ranOnSecond == name)
        #expect(Self.threads(named: name) == 2)
        gate.open()
        try await held.value
        first = nil
        #expect(try await eventually(within: .seconds(30)) { Self.threads(named: name) == 1 }, "the released executor's thread is still there")
    }

    @Test func aWaiterIsResumedByTheAnswerThatCoversItsTicket() async throws {
        let waiters = ReloadWaiters()
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
        let waiters = ReloadWaiters()
        let started = ContinuousClock.now
        #expect(await waiters.wait(for: 1, timeout: .milliseconds(50)) == false)
        #expect(ContinuousClock.now - started >= .milliseconds(50))
        // A later answer finds no one waiting and is kept for the next ask.
        waiters.answer(upTo: 1)
        #expect(await waiters.wait(for: 1, timeout: .seconds(600)))
    }
}
