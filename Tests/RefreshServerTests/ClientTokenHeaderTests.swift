import Crypto
import Foundation
import HTTPTypes
import Testing

@testable import RefreshServer

/// What a token's header and lifetime say is checked, not only its signature: each token below is signed correctly
/// with the server's own key, and each was accepted before (a security probe of 0.10.0), because JWTKit takes the
/// algorithm from the key and reads nothing else of the header.
@Suite("The app's access token: header and lifetime")
struct ClientTokenHeaderTests {
    static let secret = ClientTokenTests.secret

    static func es256(_ claims: [String: Any], key: P256.Signing.PrivateKey, header: [String: Any]) throws -> String {
        let input = HandSignedJWT.base64URL(HandSignedJWT.json(header)) + "." + HandSignedJWT.base64URL(HandSignedJWT.json(claims))
        return input + "." + HandSignedJWT.base64URL(try key.signature(for: Array(input.utf8)).rawRepresentation)
    }

    static func claims(issuedAt: TimeInterval = 0, lifetime: TimeInterval = 900) -> [String: Any] {
        var claims = ClientTokenTests.claims()
        let now = Date().timeIntervalSince1970
        claims["iat"] = Int(now + issuedAt)
        claims["exp"] = Int(now + issuedAt + lifetime)
        return claims
    }

    static func status(_ client: any ServerClient, _ token: String) async throws -> (Int, String) {
        let reply = try await client.send(.get, "/v1/networks", headers: ClientTokenTests.bearer(token))
        return (reply.status, reply.json?["message"]?.string ?? reply.text)
    }

    @Test("an HS256 signature under a header that says another algorithm, or marks an extension critical, is refused")
    func hmacHeader() async throws {
        try await withServer(configure: ClientTokenTests.configure) { client, _ in
            let good = HandSignedJWT.hs256(Self.claims(), secret: Self.secret)
            #expect(try await Self.status(client, good).0 == 200)
            let refused: [(String, [String: Any])] = [
                ("alg none", ["alg": "none", "typ": "JWT"]),
                ("alg HS512", ["alg": "HS512", "typ": "JWT"]),
                ("no alg", ["typ": "JWT"]),
                ("crit exp", ["alg": "HS256", "crit": ["exp"], "exp": 1]),
                ("crit empty", ["alg": "HS256", "crit": [String]()]),
            ]
            for (why, header) in refused {
                let token = HandSignedJWT.hs256(Self.claims(), secret: Self.secret, header: header)
                let (status, message) = try await Self.status(client, token)
                #expect(status == 401, "\(why): \(message)")
            }
        }
    }

    @Test("a JWKS key's token must name a kid the JWKS has and that key's algorithm")
    func jwksHeader() async throws {
        let key = P256.Signing.PrivateKey()
        let configure: (inout ServerConfiguration) -> Void = {
            $0.clientJWTKey = .jwks(HandSignedJWT.jwks(key.publicKey, kid: "app-1"))
            $0.clientJWTAudience = ClientTokenTests.audience
        }
        try await withServer(configure: configure) { client, _ in
            let good = try Self.es256(Self.claims(), key: key, header: ["alg": "ES256", "kid": "app-1"])
            #expect(try await Self.status(client, good).0 == 200)
            for (why, header) in [
                ("unknown kid", ["alg": "ES256", "kid": "someone-else"]), ("alg RS256", ["alg": "RS256", "kid": "app-1"]),
                ("kid not a string", ["alg": "ES256", "kid": 7] as [String: Any]),
            ] as [(String, [String: Any])] {
                let (status, message) = try await Self.status(client, try Self.es256(Self.claims(), key: key, header: header))
                #expect(status == 401, "\(why): \(message)")
            }
        }
    }

    @Test("a token issued in the future or living longer than --client-jwt-max-lifetime is refused")
    func lifetime() async throws {
        try await withServer(configure: ClientTokenTests.configure) { client, _ in
            // Inside the leeway and the default 24 h, accepted.
            for claims in [Self.claims(issuedAt: 30), Self.claims(lifetime: 23 * 3_600)] {
                #expect(try await Self.status(client, HandSignedJWT.hs256(claims, secret: Self.secret)).0 == 200)
            }
            var forever = ClientTokenTests.claims()
            forever["exp"] = 1e20
            var noIssueTime = ClientTokenTests.claims(expiresIn: 2 * 86_400)
            noIssueTime["iat"] = nil
            let refused: [(String, [String: Any])] = [
                ("iat 10^8 s ahead", Self.claims(issuedAt: 1e8)),
                ("iat an hour ahead", Self.claims(issuedAt: 3_600)),
                ("a 25 h lifetime", Self.claims(lifetime: 25 * 3_600)),
                ("exp 1e20", forever),
                ("no iat, exp in 2 days", noIssueTime),
            ]
            for (why, claims) in refused {
                let (status, message) = try await Self.status(client, HandSignedJWT.hs256(claims, secret: Self.secret))
                #expect(status == 401, "\(why): \(message)")
            }
        }
        var short = ServerConfiguration(database: "")
        ClientTokenTests.configure(&short)
        let verifier = try await ClientTokenVerifier.make(key: short.clientJWTKey!, issuer: nil, audience: nil, maxLifetime: .seconds(600))
        await #expect(throws: ClientTokenVerifier.Refusal.self) {
            _ = try await verifier.verify(Substring(HandSignedJWT.hs256(Self.claims(lifetime: 900), secret: Self.secret)))
        }
        _ = try await verifier.verify(Substring(HandSignedJWT.hs256(Self.claims(lifetime: 500), secret: Self.secret)))
    }
}
