import ChainImport
import Foundation
import Synchronization

/// Imports answered at once with 202 (`Prefer: respond-async`) and followed at `GET /admin/jobs/{id}`: a console
/// shows a progress bar instead of holding a request open for a long import. Kept in memory; a finished job is
/// kept an hour, and at most `capacity` jobs are kept.
final class ImportJobs: Sendable {
    enum Status: String, Sendable {
        case running, committed
        case dryRun = "dry-run"
        case failed
    }

    struct Job: Sendable {
        var status: Status
        var progress: ImportProgress?
        var result: ImportReport?
        var error: APIError?
        var startedAt: Date
        var finishedAt: Date?
    }

    private let jobs = Mutex<[String: Job]>([:])
    private let clock: ServerClock
    let capacity: Int
    let keepSeconds: Double

    init(clock: ServerClock, capacity: Int = 100, keepSeconds: Double = 3_600) {
        self.clock = clock
        self.capacity = capacity
        self.keepSeconds = keepSeconds
    }

    /// A new running job's id: random, so one admin cannot guess another's job by counting.
    func start() -> String {
        let now = clock.now()
        let id = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        jobs.withLock { jobs in
            Self.prune(&jobs, now: now, keep: keepSeconds, capacity: capacity - 1)
            jobs[id] = Job(status: .running, startedAt: now)
        }
        return id
    }

    func progress(_ id: String, _ progress: ImportProgress) {
        jobs.withLock { $0[id]?.progress = progress }
    }

    func finish(_ id: String, report: ImportReport) {
        jobs.withLock { jobs in
            jobs[id]?.status = report.committed ? .committed : (report.dryRun ? .dryRun : .failed)
            jobs[id]?.result = report
            jobs[id]?.finishedAt = clock.now()
        }
    }

    func fail(_ id: String, _ error: APIError) {
        jobs.withLock { jobs in
            jobs[id]?.status = .failed
            jobs[id]?.error = error
            jobs[id]?.finishedAt = clock.now()
        }
    }

    func job(_ id: String) -> Job? { jobs.withLock { $0[id] } }

    /// Drops finished jobs older than `keep` seconds, then the oldest finished ones beyond `capacity`.
    private static func prune(_ jobs: inout [String: Job], now: Date, keep: Double, capacity: Int) {
        jobs = jobs.filter { $0.value.finishedAt.map { now.timeIntervalSince($0) < keep } ?? true }
        let excess = jobs.count - max(0, capacity)
        guard excess > 0 else { return }
        let oldest = jobs.filter { $0.value.finishedAt != nil }.sorted { $0.value.startedAt < $1.value.startedAt }.prefix(excess)
        for (id, _) in oldest { jobs[id] = nil }
    }
}
