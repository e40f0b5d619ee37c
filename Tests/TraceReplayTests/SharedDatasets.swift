import Foundation
import Testing

/// Locates `../shared/datasets` (next to the repository) or `$ONCUE_SHARED_DATASETS`.
enum SharedDatasets {
    static var root: String {
        if let env = ProcessInfo.processInfo.environment["ONCUE_SHARED_DATASETS"], !env.isEmpty { return env }
        // #filePath = <repo>/Tests/TraceReplayTests/SharedDatasets.swift
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return repo.deletingLastPathComponent().appendingPathComponent("shared/datasets").path
    }

    /// The absolute path of a dataset file; records a clear failure when the shared datasets are missing.
    static func path(_ relative: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let p = (root as NSString).appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: p) else {
            Issue.record("shared dataset file missing: \(p) — clone ../shared next to the repo or set ONCUE_SHARED_DATASETS", sourceLocation: sourceLocation)
            throw CocoaError(.fileNoSuchFile)
        }
        return p
    }
}
