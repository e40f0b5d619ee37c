import Foundation
import Hummingbird
import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// Streams an upload to a temporary file, counting bytes as they arrive, so a CSV of any size up
/// to the limit costs one chunk of memory and an oversized one is refused (413) as soon as it
/// crosses the limit.
struct ImportUpload {
    let directory: String
    let maxBytes: Int

    /// The staged file; delete it with `remove()`. While it exists this process holds an exclusive `flock` on it, which
    /// the kernel drops when the process dies, however it dies: a file nobody holds is an orphan of a killed server.
    struct Staged: Sendable {
        let path: String
        let size: Int64
        let lock: FileLock

        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    /// An open descriptor holding the `flock`; closed (and the lock released) when the last copy of a `Staged` goes.
    final class FileLock: Sendable {
        let descriptor: Int32
        init(_ descriptor: Int32) { self.descriptor = descriptor }
        deinit { close(descriptor) }
    }

    static let filePrefix = "oncue-upload-"

    /// Deletes the uploads a killed server left in `directory` (kill -9 mid-upload or mid-import). Files another live
    /// server holds are left alone, so replicas may share the directory. Returns how many were removed.
    @discardableResult
    static func removeOrphans(in directory: String, logger: Logger) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
        var removed = 0
        for name in names where name.hasPrefix(filePrefix) && name.hasSuffix(".csv") {
            let path = (directory as NSString).appendingPathComponent(name)
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }  // a live server holds it
            if unlink(path) == 0 { removed += 1 }
        }
        if removed > 0 { logger.notice("removed uploads left by a stopped server", metadata: ["files": "\(removed)", "directory": "\(directory)"]) }
        return removed
    }

    func stage(_ request: Request) async throws -> Staged {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maxBytes {
            throw APIError.bodyTooLarge(limit: maxBytes)
        }
        let path = (directory as NSString).appendingPathComponent("\(Self.filePrefix)\(UUID().uuidString).csv")
        let lock = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0, let handle = FileHandle(forWritingAtPath: path) else {
            if lock >= 0 {
                close(lock)
                unlink(path)
            }
            throw APIError(.serviceUnavailable, code: "staging_failed", message: "cannot stage the upload in \(directory)", retryAfter: 5)
        }
        let staged = Staged(path: path, size: 0, lock: FileLock(lock))
        var written = 0
        do {
            defer { try? handle.close() }
            for try await chunk in request.body {
                written += chunk.readableBytes
                guard written <= maxBytes else { throw APIError.bodyTooLarge(limit: maxBytes) }
                try chunk.withUnsafeReadableBytes { try handle.write(contentsOf: Data($0)) }
            }
        } catch {
            staged.remove()
            throw error
        }
        guard written > 0 else {
            staged.remove()
            throw APIError.badRequest("empty_body", "the request body must be a CSV file with a header line")
        }
        return Staged(path: path, size: Int64(written), lock: staged.lock)
    }
}
