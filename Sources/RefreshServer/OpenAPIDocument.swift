import Foundation
import NIOCore

/// The OpenAPI document compiled into the binary: the one source of truth for the contract.
package enum OpenAPIDocument {
    /// The document's text.
    package static func text() throws -> String {
        guard let file = EmbeddedFile.named("openapi.yaml") else {
            throw ConfigurationError("openapi.yaml is missing from the embedded files (run scripts/embed_resources.py)")
        }
        return String(buffer: file.bytes)
    }

    static func load() throws -> ByteBuffer {
        ByteBuffer(string: try text())
    }
}
