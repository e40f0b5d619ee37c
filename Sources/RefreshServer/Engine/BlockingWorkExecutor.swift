import Foundation
import Synchronization

/// A task executor backed by one dedicated thread, for the server's blocking work (SQLite reads
/// and writes, index builds, imports). Running that work on Swift's cooperative pool or on NIO's
/// event loops would stall request handling for as long as a rebuild takes; here it only ties up
/// its own thread. Jobs run in the order they were enqueued.
final class BlockingWorkExecutor: TaskExecutor, Sendable {
    private let condition = NSCondition()
    private let queue = Mutex<[UnownedJob]>([])

    /// Index builds and imports: long, one at a time.
    static let rebuilds = BlockingWorkExecutor(name: "oncue-rebuild")
    /// Short store reads and writes of the admin API, so that they are not queued behind a rebuild.
    static let storeAccess = BlockingWorkExecutor(name: "oncue-store")
    /// Region selections in dense clusters, which take milliseconds: one at a time, off the I/O threads.
    static let selections = BlockingWorkExecutor(name: "oncue-select")

    private init(name: String) {
        let thread = Thread { [self] in self.runLoop() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        queue.withLock { $0.append(job) }
        condition.signal()
        condition.unlock()
    }

    private func runLoop() -> Never {
        while true {
            condition.lock()
            var batch = takeAll()
            while batch.isEmpty {
                condition.wait()
                batch = takeAll()
            }
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }

    private func takeAll() -> [UnownedJob] {
        queue.withLock { jobs in
            let taken = jobs
            jobs.removeAll(keepingCapacity: true)
            return taken
        }
    }

    /// Runs `body` with this executor preferred for it and every child task it awaits.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await withTaskExecutorPreference(self) { try await body() }
    }
}
