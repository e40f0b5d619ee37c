import Foundation
import Testing

/// The shared, unmodified third-party datasets (real chain directories and GPS traces) that are not redistributable
/// and so live outside the repository: `$ONCUE_SHARED_DATASETS` when set, else the nearest `shared/datasets` beside
/// the repository or one of its parents. Tests that read them carry `.needsSharedDatasets` and are skipped, with the
/// reason, where they are absent: a clone without them still has a green test run.
public enum SharedDatasets {
    /// The repository this file belongs to.
    public static let repository: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The datasets folder, or nil when there is none.
    public static let root: URL? = {
        if let env = ProcessInfo.processInfo.environment["ONCUE_SHARED_DATASETS"], !env.isEmpty {
            return isDirectory(env) ? URL(fileURLWithPath: env) : nil
        }
        var parent = repository.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = parent.appendingPathComponent("shared/datasets")
            if isDirectory(candidate.path) { return candidate }
            parent = parent.deletingLastPathComponent()
        }
        return nil
    }()

    public static var isAvailable: Bool { root != nil }

    /// Why a test that needs the datasets was skipped.
    public static let missingReason: Comment = """
        needs the shared datasets: ../shared/datasets beside the repository, or ONCUE_SHARED_DATASETS
        """

    /// The absolute path of a file in the datasets folder; throws a clear error when it is missing (a test that
    /// reaches this without `.needsSharedDatasets` has forgotten the trait).
    public static func path(_ relative: String) throws -> String {
        guard let root else { throw Missing(path: relative) }
        let path = root.appendingPathComponent(relative).path
        guard FileManager.default.fileExists(atPath: path) else { throw Missing(path: path) }
        return path
    }

    /// The URL of a file in the datasets folder (see `path(_:)`).
    public static func url(_ relative: String) throws -> URL { URL(fileURLWithPath: try path(relative)) }

    /// A file of the repository's own `datasets/` folder (always present).
    public static func bundled(_ relative: String) -> String {
        repository.appendingPathComponent("datasets").appendingPathComponent(relative).path
    }

    public struct Missing: Error, CustomStringConvertible {
        public var path: String
        public var description: String { "shared dataset file missing: \(path) (set ONCUE_SHARED_DATASETS)" }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only where the shared datasets are present; skips it with the reason elsewhere.
    public static var needsSharedDatasets: Self {
        .enabled(if: SharedDatasets.isAvailable, SharedDatasets.missingReason)
    }
}
