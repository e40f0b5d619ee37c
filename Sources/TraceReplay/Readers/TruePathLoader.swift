import Foundation

/// Finds and reads the noiseless path that belongs to a trace file (`ground_truth.true_paths`): for
/// `walks/walk-01.gpx` and `true_paths = "true"`, the file `walks/true/walk-01.csv` (time, lat, lon).
package enum TruePathLoader {
    package static func path(for tracePath: String, folder: String) -> String {
        let url = URL(fileURLWithPath: tracePath)
        return url.deletingLastPathComponent().appendingPathComponent(folder)
            .appendingPathComponent(url.deletingPathExtension().lastPathComponent + ".csv").path
    }

    /// nil when the scenario names no folder; throws when it names one and the file is missing or unreadable, since
    /// replaying such a trace against its own noisy fixes would silently measure something else.
    package static func load(for tracePath: String, model: GroundTruthModel, cleaning: TraceCleaning) throws -> Trace? {
        guard !model.truePaths.isEmpty else { return nil }
        let p = path(for: tracePath, folder: model.truePaths)
        guard FileManager.default.fileExists(atPath: p) else {
            throw TraceReadError.io("no true path \(p) for \(tracePath) (ground_truth.true_paths = \"\(model.truePaths)\")")
        }
        let trace = try TraceLoader.load(path: p, cleaning: cleaning, name: (p as NSString).lastPathComponent)
        guard trace.fixCount > 0 else { throw TraceReadError.io("the true path \(p) has no usable fixes") }
        return trace
    }
}
