import Foundation
import Hummingbird
import NIOCore

/// Streams an upload to a temporary file, counting bytes as they arrive, so a CSV of any size up
/// to the limit costs one chunk of memory and an oversized one is refused (413) as soon as it
/// crosses the limit.
struct ImportUpload {
    let directory: String
    let maxBytes: Int

    /// The staged file; delete it with `remove()`.
    struct Staged {
        let path: String
        let size: Int64
        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    func stage(_ request: Request) async throws -> Staged {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maxBytes {
            throw APIError.bodyTooLarge(limit: maxBytes)
        }
        let path = (directory as NSString).appendingPathComponent("oncue-upload-\(UUID().uuidString).csv")
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw APIError(.serviceUnavailable, code: "staging_failed", message: "cannot stage the upload in \(directory)", retryAfter: 5)
        }
        var written = 0
        do {
            defer { try? handle.close() }
            for try await chunk in request.body {
                written += chunk.readableBytes
                guard written <= maxBytes else { throw APIError.bodyTooLarge(limit: maxBytes) }
                try chunk.withUnsafeReadableBytes { try handle.write(contentsOf: Data($0)) }
            }
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
        guard written > 0 else {
            try? FileManager.default.removeItem(atPath: path)
            throw APIError.badRequest("empty_body", "the request body must be a CSV file with a header line")
        }
        return Staged(path: path, size: Int64(written))
    }
}
