import Foundation
import Synchronization

/// A task executor backed by one dedicated thread, for the server's blocking work (SQLite reads
/// and writes, index builds, imports). Running that work on Swift's cooperative pool or on NIO's
/// event loops would stall request handling for as long as a rebuild takes; here it only ties up
/// its own thread. Jobs run in the order they were enqueued.
///
/// Each executor belongs to one server (`ServerExecutors`): its thread ends when the last reference to the executor
/// goes, so two servers in one process never queue behind each other.
final class BlockingWorkExecutor: TaskExecutor, Sendable {
    private let queue = JobQueue()

    init(name: String) {
        let queue = self.queue
        let executor = UnownedTaskExecutor(ordinary: self)
        // Named from inside: on Linux a name given before `start()` never reaches the system thread (which keeps its
        // creator's), and top, gdb and /proc should show which thread is the server's rebuild thread.
        Thread {
            Thread.current.name = name
            queue.runUntilClosed(on: executor)
        }.start()
    }

    deinit { queue.close() }

    func enqueue(_ job: consuming ExecutorJob) {
        queue.append(UnownedJob(job))
    }

    /// Runs `body` with this executor preferred for it and every child task it awaits.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await withTaskExecutorPreference(self) { try await body() }
    }
}

/// The jobs of one `BlockingWorkExecutor` and the loop its thread runs. Kept apart from the executor so that the
/// thread does not keep the executor alive: a job in the queue belongs to a task that does (its executor preference),
/// so when the executor goes the queue is empty and the thread can end.
private final class JobQueue: @unchecked Sendable {
    // `jobs` and `closed` are read and written only with `condition` locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var closed = false

    func append(_ job: UnownedJob) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func close() {
        condition.lock()
        closed = true
        condition.signal()
        condition.unlock()
    }

    func runUntilClosed(on executor: UnownedTaskExecutor) {
        while true {
            condition.lock()
            while jobs.isEmpty && !closed { condition.wait() }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            let done = closed && batch.isEmpty
            condition.unlock()
            if done { return }
            for job in batch { job.runSynchronously(on: executor) }
        }
    }
}

/// The threads of one server's blocking work, created with the server and ended with it.
package final class ServerExecutors: Sendable {
    /// Index builds and imports: long, one at a time.
    let rebuilds: BlockingWorkExecutor
    /// Short store reads and writes of the admin API, so that they are not queued behind a rebuild.
    let storeAccess: BlockingWorkExecutor
    /// Region selections in dense clusters, which take milliseconds: one at a time, off the I/O threads.
    let selections: BlockingWorkExecutor
    /// Writes of the audit log, which may wait out a busy store (another process's import) without holding up the
    /// admin API's reads or the reading of its keys.
    let audit: BlockingWorkExecutor

    package init() {
        rebuilds = BlockingWorkExecutor(name: "oncue-rebuild")
        storeAccess = BlockingWorkExecutor(name: "oncue-store")
        selections = BlockingWorkExecutor(name: "oncue-select")
        audit = BlockingWorkExecutor(name: "oncue-audit")
    }
}
