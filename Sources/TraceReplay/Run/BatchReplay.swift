import Foundation

/// Replays many trace files in parallel (one task per file, at most `parallelism` at once). Results come back in
/// input order and every trace's randomness derives from its own name, so output is identical for any parallelism.
public enum BatchReplay {
    /// A file that could not be read: reported, not fatal for the batch.
    public struct Failure: Error, Sendable, Codable, Hashable {
        public var path: String
        public var error: String
    }

    public static func run(paths: [String], names: [String], strategies: [Strategy], context: ReplayContext,
                           parallelism: Int = ProcessInfo.processInfo.activeProcessorCount,
                           progress: (@Sendable (Int, Int) -> Void)? = nil) async -> (runs: [TraceRun], failures: [Failure]) {
        let total = paths.count
        var results = [Result<TraceRun, Failure>?](repeating: nil, count: total)
        await withTaskGroup(of: (Int, Result<TraceRun, Failure>).self) { group in
            var next = 0
            var done = 0
            func launch(_ i: Int) {
                let path = paths[i], name = names[i]
                group.addTask {
                    do {
                        let trace = try TraceLoader.load(path: path, cleaning: context.scenario.trace, name: name)
                        return (i, .success(await ReplayRunner.run(trace, strategies: strategies, context: context)))
                    } catch {
                        return (i, .failure(Failure(path: path, error: String(describing: error))))
                    }
                }
            }
            while next < min(max(1, parallelism), total) { launch(next); next += 1 }
            for await (i, result) in group {
                results[i] = result
                done += 1
                progress?(done, total)
                if next < total { launch(next); next += 1 }
            }
        }
        var runs: [TraceRun] = []
        var failures: [Failure] = []
        for r in results {
            switch r {
            case .success(let run)?: runs.append(run)
            case .failure(let f)?: failures.append(f)
            case nil: break
            }
        }
        return (runs, failures)
    }

    /// Display names: each path relative to the inputs' common directory (unique and stable across machines).
    public static func displayNames(_ paths: [String]) -> [String] {
        let split = paths.map { ($0 as NSString).standardizingPath.split(separator: "/").map(String.init) }
        guard var common = split.first.map({ Array($0.dropLast()) }) else { return [] }
        for parts in split.dropFirst() {
            var n = 0
            while n < common.count && n < parts.count - 1 && common[n] == parts[n] { n += 1 }
            common = Array(common.prefix(n))
        }
        return split.map { $0.dropFirst(common.count).joined(separator: "/") }
    }

    /// Writes `summary.json`, and per trace `<name>.events.csv` and `<name>.html`, into `directory`.
    public static func writeOutputs(_ runs: [TraceRun], summary: ReplaySummary, scenario: Scenario, to directory: String) throws -> [String] {
        let fm = FileManager.default
        try fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var written: [String] = []
        func write(_ text: String, _ name: String) throws {
            let path = (directory as NSString).appendingPathComponent(name)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            written.append(path)
        }
        try write(summary.json(), "summary.json")
        for run in runs {
            let base = fileStem(run.trace.name)
            try write(EventCSV.render(run), base + ".events.csv")
            try write(HTMLReport.render(run, scenario: scenario), base + ".html")
        }
        return written
    }

    static func fileStem(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
    }
}
