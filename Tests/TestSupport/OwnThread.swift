import Foundation
import Testing

/// Runs each test case on a thread of its own instead of on Swift's cooperative pool.
///
/// Swift Testing runs every test on the cooperative pool, one thread per core (two on CI), and a job there runs until it
/// awaits: a test that computes for twenty seconds without awaiting, or blocks in `recv`, holds its thread all that
/// time. Two such tests at once stalled every other test of the process for minutes, and a 60-second `eventually`
/// then failed for a task that had never been scheduled. On a thread of its own the test is time-sliced by the kernel
/// with everything else; `.cpuHeavy` also lowers that thread's priority, so the tests that wait on servers and clocks
/// are not slowed by the ones that only compute.
public struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    let niceness: Int32

    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let executor = TestThreadExecutor(niceness: niceness)
        defer { executor.finish() }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// For tests that compute for seconds without awaiting (brute-force oracles, indexes of 100,000 locations, property
    /// runs of thousands of cases): a thread of their own at a lower priority (nice 10).
    public static var cpuHeavy: Self { OwnThreadTrait(niceness: 10) }

    /// For tests that block their thread (`recv` on a raw socket, `waitUntilExit`): a thread of their own.
    public static var blocking: Self { OwnThreadTrait(niceness: 0) }
}

/// A task executor with one thread, which ends once `finish()` has been called and the jobs it holds have run.
private final class TestThreadExecutor: TaskExecutor, @unchecked Sendable {
    // `jobs` and `finished` are read and written only with `condition` locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    init(niceness: Int32) {
        Thread { [self] in
            // On Linux the nice value belongs to a thread, and `who` 0 names the calling one.
            if niceness != 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness) }
            runJobs()
        }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        condition.lock()
        jobs.append(UnownedJob(job))
        condition.signal()
        condition.unlock()
    }

    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            let batch = jobs
            jobs.removeAll()
            let done = finished && batch.isEmpty
            condition.unlock()
            if done { return }
            for job in batch { job.runSynchronously(on: executor) }
        }
    }
}
