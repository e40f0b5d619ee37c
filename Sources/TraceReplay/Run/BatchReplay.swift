import Foundation

/// A trace file read and cleaned, with its noiseless path when the scenario names one.
package struct LoadedTrace: Sendable {
    package var path: String
    package var trace: Trace
    package var truth: Trace?
    /// What the terminal must say about the file although it was taken (`TraceAdmission.warnings`).
    package var warnings: [String] = []
}

/// Replays many trace files in parallel (at most `parallelism` at once). Results come back in input order and every
/// trace's randomness derives from its own content, so output is identical for any parallelism or batch.
package enum BatchReplay {
    /// A file that could not be read: reported, not fatal for the batch.
    package struct Failure: Error, Sendable, Codable, Hashable {
        package var path: String
        package var error: String
    }

    /// Reads and cleans every file (and its true path), in parallel; a file `admission` refuses is a failure.
    package static func load(
        paths: [String], names: [String], scenario: Scenario, admission: TraceAdmission = .init(),
        parallelism: Int = ProcessInfo.processInfo.activeProcessorCount
    ) async -> (traces: [LoadedTrace], failures: [Failure]) {
        let results = await inParallel(paths.indices.map { i in (paths[i], names[i]) }, parallelism: parallelism) {
            item -> Result<[LoadedTrace], Failure> in
            let (path, name) = item
            do {
                // A CSV of several trajectories is several traces; a true path belongs to a file of one.
                let traces = try TraceLoader.loadAll(path: path, cleaning: scenario.trace, name: name)
                // Before the true path: a file without times must say so, not that its true path is missing.
                if let refusal = traces.lazy.compactMap({ admission.refusal(of: $0, cleaning: scenario.trace) }).first {
                    return .failure(Failure(path: path, error: refusal))
                }
                let truth = traces.count == 1 ? try TruePathLoader.load(for: path, model: scenario.groundTruth, cleaning: scenario.trace) : nil
                return .success(
                    traces.map {
                        LoadedTrace(path: path, trace: $0, truth: truth, warnings: admission.warnings(for: $0, cleaning: scenario.trace))
                    })
            } catch {
                return .failure(Failure(path: path, error: String(describing: error)))
            }
        }
        var traces: [LoadedTrace] = []
        var failures: [Failure] = []
        for r in results {
            switch r {
            case .success(let t): traces += t
            case .failure(let f): failures.append(f)
            }
        }
        return (traces, failures)
    }

    /// Replays loaded traces under `strategies` plus both oracles.
    package static func run(
        _ traces: [LoadedTrace], strategies: [Strategy], context: ReplayContext,
        parallelism: Int = ProcessInfo.processInfo.activeProcessorCount,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async -> [TraceRun] {
        await inParallel(traces, parallelism: parallelism, progress: progress) { t in
            await ReplayRunner.run(t.trace, truth: t.truth, strategies: strategies, context: context)
        }
    }

    /// Reads and replays files (what `oncue replay` does without a sweep).
    package static func run(
        paths: [String], names: [String], strategies: [Strategy], context: ReplayContext, admission: TraceAdmission = .init(),
        parallelism: Int = ProcessInfo.processInfo.activeProcessorCount,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async -> (runs: [TraceRun], failures: [Failure]) {
        let loaded = await load(paths: paths, names: names, scenario: context.scenario, admission: admission, parallelism: parallelism)
        let runs = await run(loaded.traces, strategies: strategies, context: context, parallelism: parallelism, progress: progress)
        return (runs, loaded.failures)
    }

    /// `work` over `items` with at most `parallelism` running; results in input order.
    static func inParallel<T: Sendable, R: Sendable>(
        _ items: [T], parallelism: Int, progress: (@Sendable (Int, Int) -> Void)? = nil,
        _ work: @escaping @Sendable (T) async -> R
    ) async -> [R] {
        var results = [R?](repeating: nil, count: items.count)
        await withTaskGroup(of: (Int, R).self) { group in
            var next = 0
            var done = 0
            while next < min(max(1, parallelism), items.count) {
                let i = next
                let item = items[i]
                group.addTask { (i, await work(item)) }
                next += 1
            }
            for await (i, r) in group {
                results[i] = r
                done += 1
                progress?(done, items.count)
                if next < items.count {
                    let j = next
                    let item = items[j]
                    group.addTask { (j, await work(item)) }
                    next += 1
                }
            }
        }
        return results.compactMap { $0 }
    }

    /// Display names: each path relative to the inputs' common directory (unique and stable across machines).
    package static func displayNames(_ paths: [String]) -> [String] {
        let split = paths.map { ($0 as NSString).standardizingPath.split(separator: "/").map(String.init) }
        guard var common = split.first.map({ Array($0.dropLast()) }) else { return [] }
        for parts in split.dropFirst() {
            var n = 0
            while n < common.count && n < parts.count - 1 && common[n] == parts[n] { n += 1 }
            common = Array(common.prefix(n))
        }
        return split.map { $0.dropFirst(common.count).joined(separator: "/") }
    }

    /// Writes `summary.json`, `index.html`, and per trace `<name>.events.csv` and `<name>.html`, into `directory`.
    package static func writeOutputs(
        _ runs: [TraceRun], summary: ReplaySummary, scenario: Scenario, sweep: SweepResult? = nil,
        to directory: String
    ) throws -> [String] {
        let fm = FileManager.default
        try fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var written: [String] = []
        func write(_ text: String, _ name: String) throws {
            let path = (directory as NSString).appendingPathComponent(name)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            written.append(path)
        }
        try write(summary.json(), "summary.json")
        if let sweep { try write(sweep.json(), "sweep.json") }
        let pages = runs.map { fileStem($0.trace.name) + ".html" }
        try write(IndexPage.render(summary: summary, sweep: sweep, traces: zip(runs.map(\.trace.name), pages).map { ($0, $1) }), "index.html")
        for (run, page) in zip(runs, pages) {
            try write(EventCSV.render(run), fileStem(run.trace.name) + ".events.csv")
            try write(TracePage.render(run, scenario: scenario), page)
        }
        return written
    }

    static func fileStem(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
    }
}
