import Foundation
import NIOCore

/// The OpenAPI document shipped as a resource of this module: the one source of truth for the contract.
public enum OpenAPIDocument {
    /// The document's text.
    public static func text() throws -> String {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw ConfigurationError("openapi.yaml is missing from the RefreshServer resources")
        }
        return try String(contentsOf: url, encoding: .utf8)
    }

    static func load() throws -> ByteBuffer {
        ByteBuffer(string: try text())
    }
}
