import Foundation

/// The JOSE header of an access token, read before its signature is checked, for what JWTKit does not check: JWTKit
/// picks the algorithm from the key (as RFC 8725 §3.1 asks) and then ignores the header's `alg`, `crit` and an unknown
/// `kid`. A token that says one thing and was verified as another is refused rather than taken on the key's word:
/// - `alg` must be the algorithm of a key that may have signed it (`none` never is);
/// - `crit` names extensions the token's reader must understand or refuse (RFC 7515 §4.1.11); this server
///   understands none, so a header with `crit` is refused;
/// - when the keys carry ids (`kid`), a token naming an id none of them has is refused.
enum TokenHeader {
    /// A key that verifies tokens: its id, if it has one, and its algorithm.
    struct Signer: Sendable, Hashable {
        var keyId: String?
        var algorithm: String
    }

    /// A header is a few dozen bytes; one larger than this is not a real token's.
    static let maxEncodedBytes = 4_096

    static func check(_ token: Substring, against signers: [Signer]) throws(ClientTokenVerifier.Refusal) {
        guard let dot = token.firstIndex(of: "."), token.distance(from: token.startIndex, to: dot) <= maxEncodedBytes,
            let data = base64URLDecoded(token[..<dot]),
            let header = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { throw .init(reason: "the token's header is not base64url-encoded JSON") }
        guard let algorithm = header["alg"] as? String else { throw .init(reason: "the token's header names no algorithm (alg)") }
        if header["crit"] != nil {
            throw .init(reason: "the token's header marks extensions critical (crit) that this server does not understand")
        }
        var candidates = signers
        if let named = header["kid"] {
            guard let keyId = named as? String else { throw .init(reason: "the token's key id (kid) is not a string") }
            if signers.contains(where: { $0.keyId != nil }) {
                candidates = signers.filter { $0.keyId == keyId }
                guard !candidates.isEmpty else { throw .init(reason: "the token names a key (kid) this server does not have") }
            }
        }
        guard candidates.contains(where: { $0.algorithm == algorithm }) else {
            let expected = Set(candidates.map(\.algorithm)).sorted().joined(separator: " or ")
            throw .init(reason: "the token's algorithm (alg \(algorithm.prefix(20))) is not its key's (\(expected))")
        }
    }

    /// RFC 4648 §5 without padding, as JWS writes it.
    static func base64URLDecoded(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
