import Foundation
import NIOCore

/// A file compiled into the binary (`Generated/EmbeddedFiles.swift`, written by scripts/embed_resources.py): the
/// server reads nothing from disk but its store, so the release binary can be copied anywhere on its own.
package struct EmbeddedFile: Sendable {
    package let contentType: String
    /// A strong validator: the first 16 hex digits of the file's SHA-256.
    package let etag: String
    let base64: String

    /// The file's bytes, decoded once.
    package var bytes: ByteBuffer {
        ByteBuffer(bytes: Data(base64Encoded: base64) ?? Data())
    }

    /// The file served under `path` (below `/`, e.g. `console/index.html`).
    package static func named(_ path: String) -> EmbeddedFile? { all[path] }
}
