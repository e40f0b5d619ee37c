import CLibCrypto

/// Streaming SHA-256 of an imported file, for the import log's checksum: OpenSSL's libcrypto from the system (with the
/// CPU's SHA instructions where it has them) behind the small interface the parser uses. A value like any other: a
/// copy hashes on independently (the context is copied on the first write after a copy).
package struct SHA256: @unchecked Sendable {
    /// Owns one libcrypto context. Sendable by hand: it is only ever changed through a uniquely referenced `SHA256`.
    private final class Context {
        let pointer: OpaquePointer

        init(copying other: OpaquePointer? = nil) {
            // These fail only when memory runs out; there is no checksum to give then.
            guard let pointer = EVP_MD_CTX_new() else { fatalError("libcrypto could not allocate a SHA-256 context") }
            let started = other.map { EVP_MD_CTX_copy_ex(pointer, $0) } ?? EVP_DigestInit_ex(pointer, EVP_sha256(), nil)
            guard started == 1 else { fatalError("libcrypto could not start a SHA-256") }
            self.pointer = pointer
        }

        deinit { EVP_MD_CTX_free(pointer) }
    }

    private var context = Context()

    package init() {}

    package mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        if !isKnownUniquelyReferenced(&context) { context = Context(copying: context.pointer) }
        EVP_DigestUpdate(context.pointer, base, bytes.count)
    }

    package mutating func update(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { update($0) } }

    /// The digest as lower-case hex (of a copy of the state: this hasher may go on).
    package mutating func finalizeHex() -> String {
        let finishing = Context(copying: context.pointer)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(finishing.pointer, &digest, &length) == 1 else { fatalError("libcrypto could not finish a SHA-256") }
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(Int(length) * 2)
        for byte in digest.prefix(Int(length)) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
