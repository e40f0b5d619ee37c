import Crypto

/// Streaming SHA-256 of an imported file, for the import log's checksum: swift-crypto's (BoringSSL's, with the CPU's
/// SHA instructions where it has them), which the package already builds for TLS, behind the small interface the
/// parser uses.
public struct SHA256: Sendable {
    private var hasher = Crypto.SHA256()

    public init() {}

    public mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        hasher.update(bufferPointer: UnsafeRawBufferPointer(bytes))
    }

    public mutating func update(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { update($0) } }

    /// The digest as lower-case hex.
    public mutating func finalizeHex() -> String {
        hasher.finalize().map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
