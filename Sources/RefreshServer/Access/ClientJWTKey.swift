import Foundation
import JWTKit

/// What verifies the app backend's access tokens (`--client-jwt`): a shared HS256 secret, or the public keys of a JWKS
/// document (ES256, RS256 and the other asymmetric algorithms JWTKit knows), read from one file.
package enum ClientJWTKey: Sendable, Hashable {
    case hmacSecret([UInt8])
    case jwks(String)

    /// A file holding a JWKS document (JSON with a `keys` array) or, otherwise, the HS256 secret itself (its bytes, a
    /// trailing line break left out). RFC 7518 §3.2 asks for a secret at least as long as the hash: 32 bytes.
    package init(file path: String) throws(SettingRefusal) {
        guard let data = FileManager.default.contents(atPath: path) else { throw SettingRefusal("names a file that cannot be read") }
        let text = String(decoding: data, as: UTF8.self)
        if text.drop(while: \.isWhitespace).first == "{" {
            guard let document = try? JSONDecoder().decode(JWKS.self, from: data) else {
                throw SettingRefusal("names a JSON file that is not a JWKS document (an object with a 'keys' array)")
            }
            guard !document.keys.isEmpty else { throw SettingRefusal("names a JWKS document with no keys") }
            // Without `alg` a key would take the algorithm of the first token that names it, and a forged token could
            // pin one under which no real token verifies (RFC 8725 §3.1: the algorithm is the key's, not the token's).
            guard document.keys.allSatisfy({ $0.algorithm != nil }) else {
                throw SettingRefusal("names a JWKS document with a key without \"alg\": give each key its algorithm (RS256, ES256, ...)")
            }
            self = .jwks(text)
            return
        }
        var bytes = Array(data)
        while let last = bytes.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard bytes.count >= 32 else { throw SettingRefusal("names a file whose HS256 secret is shorter than 32 bytes") }
        self = .hmacSecret(bytes)
    }
}
