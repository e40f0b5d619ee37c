import Crypto
import Foundation
import LocationStore

/// How admin keys are minted and recognised. A key's bearer token is `oncue_<id>_<secret>`: the id is public (listings,
/// the audit log), the secret is 32 random bytes in base64url. The store keeps only the token's SHA-256: a token has
/// 256 bits of entropy, so a fast hash is enough (a slow one protects guessable passwords, which these are not).
package enum AdminKeySecret {
    package static let prefix = "oncue_"

    /// A new key of `role` and the bearer token that proves it: the token is shown once and never stored.
    package static func mint(name: String, role: AdminRole, at date: Date = Date()) -> (key: AdminKey, token: String) {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        let id = "k_" + String((0..<12).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] })
        let secret = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
            .base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        let token = prefix + id + "_" + secret
        return (AdminKey(id: id, name: name, role: role, secretSHA256: sha256Hex(token), createdAt: date), token)
    }

    /// Lower-case hex SHA-256 of a token's UTF-8 bytes: what the store keeps and what a presented token is looked up by.
    package static func sha256Hex(_ token: some StringProtocol) -> String {
        SHA256.hash(data: Array(token.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// A key's name: 1 to 100 printable characters, as typed.
    package static func checkedName(_ name: String) throws(StoreError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 100, !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw .invalidArgument("a key's name must be 1 to 100 printable characters") }
        return trimmed
    }
}
