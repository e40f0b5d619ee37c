import Crypto
import Foundation
import HTTPTypes
import LocationStore
import Synchronization
import Testing

@testable import RefreshServer

/// Access tokens of the app's backend, signed here by hand (HMAC-SHA256, P-256) as RFC 7515 describes, so that what
/// the server's JWTKit accepts is checked against an independent signer.
enum HandSignedJWT {
    static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func json(_ object: [String: Any]) -> [UInt8] {
        Array(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    static func hs256(_ claims: [String: Any], secret: [UInt8], header: [String: Any] = ["alg": "HS256", "typ": "JWT"]) -> String {
        let input = base64URL(json(header)) + "." + base64URL(json(claims))
        let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: SymmetricKey(data: secret))
        return input + "." + base64URL(mac)
    }

    static func es256(_ claims: [String: Any], key: P256.Signing.PrivateKey, kid: String) throws -> String {
        let input = base64URL(json(["alg": "ES256", "typ": "JWT", "kid": kid])) + "." + base64URL(json(claims))
        return input + "." + base64URL(try key.signature(for: Array(input.utf8)).rawRepresentation)
    }

    /// A JWKS document with `key`'s public half.
    static func jwks(_ key: P256.Signing.PublicKey, kid: String) -> String {
        let raw = Array(key.rawRepresentation)
        let x = base64URL(raw[0..<32])
        let y = base64URL(raw[32..<64])
        return #"{"keys": [{"kty": "EC", "crv": "P-256", "x": "\#(x)", "y": "\#(y)", "alg": "ES256", "use": "sig", "kid": "\#(kid)"}]}"#
    }
}

@Suite("The app's access token on the public API")
struct ClientTokenTests {
    static let secret = Array("a-shared-secret-of-32-bytes-or-more!".utf8)
    static let issuer = "https://auth.oncue.test"
    static let audience = "oncue-api"
    static let refresh = #"{"lat": 37.77, "lon": -122.413, "user_networks": ["costco"], "max_regions": 5}"#

    static func claims(sub: String = "user-4711", expiresIn: TimeInterval = 900, iss: String = issuer, aud: Any = audience) -> [String: Any] {
        let now = Date().timeIntervalSince1970
        return ["sub": sub, "iat": Int(now), "exp": Int(now + expiresIn), "iss": iss, "aud": aud]
    }

    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.clientJWTKey = .hmacSecret(secret)
        configuration.clientJWTIssuer = issuer
        configuration.clientJWTAudience = audience
    }

    static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }

    @Test("a valid token is served; missing, expired, early, foreign, misaddressed and forged ones get 401")
    func verification() async throws {
        try await withServer(configure: Self.configure) { client, _ in
            let valid = HandSignedJWT.hs256(Self.claims(), secret: Self.secret)
            #expect(try await client.send(.post, "/v1/region-refresh", headers: Self.bearer(valid), body: Self.refresh).status == 200)
            #expect(try await client.send(.get, "/v1/networks", headers: Self.bearer(valid)).status == 200)
            #expect(try await client.send(.get, "/v1/locations?bbox=-122.5,37.7,-122.3,37.8", headers: Self.bearer(valid)).status == 200)
            // Within the 60 s leeway an expired token still passes; past it, it does not.
            let justExpired = HandSignedJWT.hs256(Self.claims(expiresIn: -30), secret: Self.secret)
            #expect(try await client.send(.get, "/v1/networks", headers: Self.bearer(justExpired)).status == 200)

            var early = Self.claims()
            early["nbf"] = Int(Date().timeIntervalSince1970 + 600)
            let refused: [(String, String?)] = [
                ("no token", nil),
                ("expired", HandSignedJWT.hs256(Self.claims(expiresIn: -120), secret: Self.secret)),
                ("not yet valid", HandSignedJWT.hs256(early, secret: Self.secret)),
                ("another issuer", HandSignedJWT.hs256(Self.claims(iss: "https://evil.test"), secret: Self.secret)),
                ("another audience", HandSignedJWT.hs256(Self.claims(aud: ["other-api"]), secret: Self.secret)),
                ("another secret", HandSignedJWT.hs256(Self.claims(), secret: Array("another-shared-secret-of-32-bytes!!".utf8))),
                (
                    "alg none",
                    HandSignedJWT.base64URL(HandSignedJWT.json(["alg": "none"])) + "." + HandSignedJWT.base64URL(HandSignedJWT.json(Self.claims()))
                        + "."
                ),
                ("no subject", HandSignedJWT.hs256(Self.claims(sub: ""), secret: Self.secret)),
                ("not a JWT", "oncue"),
            ]
            for (why, token) in refused {
                let reply = try await client.send(.get, "/v1/networks", headers: token.map(Self.bearer) ?? [:])
                #expect(reply.status == 401 && reply.json?["error"]?.string == "invalid_token", "\(why): \(reply.text)")
                #expect(reply.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true, "\(why)")
            }
            // The probes, the document and the console need no token; the admin API keeps its own keys.
            #expect(try await client.send(.get, "/healthz").status == 200)
            #expect(try await client.send(.get, "/openapi.yaml", json: false).status == 200)
            #expect(try await client.send(.get, "/console/", json: false).status == 200)
            #expect(try await client.send(.get, "/admin/imports", headers: .admin).status == 200)
        }
    }

    @Test("a JWKS's ES256 key verifies its tokens and no other key's")
    func jwks() async throws {
        let key = P256.Signing.PrivateKey()
        let configure: (inout ServerConfiguration) -> Void = {
            $0.clientJWTKey = .jwks(HandSignedJWT.jwks(key.publicKey, kid: "app-1"))
            $0.clientJWTAudience = Self.audience
        }
        try await withServer(configure: configure) { client, _ in
            let signed = try HandSignedJWT.es256(Self.claims(), key: key, kid: "app-1")
            #expect(try await client.send(.get, "/v1/networks", headers: Self.bearer(signed)).status == 200)
            let forged = try HandSignedJWT.es256(Self.claims(), key: P256.Signing.PrivateKey(), kid: "app-1")
            #expect(try await client.send(.get, "/v1/networks", headers: Self.bearer(forged)).status == 401)
            let hmac = HandSignedJWT.hs256(Self.claims(), secret: Self.secret)
            #expect(try await client.send(.get, "/v1/networks", headers: Self.bearer(hmac)).status == 401)
            let otherApp = try HandSignedJWT.es256(Self.claims(aud: "another-app"), key: key, kid: "app-1")
            #expect(try await client.send(.get, "/v1/networks", headers: Self.bearer(otherApp)).status == 401)
        }
    }

    @Test("a JWKS needs an audience, and each of its keys an algorithm")
    func jwksIsRefusedWithoutAudienceOrAlgorithm() async throws {
        let key = P256.Signing.PrivateKey()
        var configuration = ServerConfiguration(database: "/nonexistent/store.sqlite")
        configuration.clientJWTKey = .jwks(HandSignedJWT.jwks(key.publicKey, kid: "app-1"))
        await #expect(throws: ConfigurationError.self) {
            _ = try await ClientTokenVerifier.make(key: configuration.clientJWTKey!, issuer: nil, audience: nil)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("jwks-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(HandSignedJWT.jwks(key.publicKey, kid: "app-1").replacingOccurrences(of: #""alg": "ES256", "#, with: "").utf8).write(to: file)
        #expect(throws: SettingRefusal.self) { _ = try ClientJWTKey(file: file.path) }
    }

    @Test("the rate limit counts per token subject, and the subject never reaches the log")
    func limitPerSubject() async throws {
        let logs = LogCapture()
        let limited: (inout ServerConfiguration) -> Void = { configuration in
            Self.configure(&configuration)
            configuration.rateLimit = .init(requestsPerSecond: 0.001, burst: 2)
        }
        try await withServer(logs: logs, configure: limited) { client, _ in
            let alice = HandSignedJWT.hs256(Self.claims(sub: "alice-4711@example.com"), secret: Self.secret)
            let bob = HandSignedJWT.hs256(Self.claims(sub: "bob-0815@example.com"), secret: Self.secret)
            var statuses: [Int] = []
            for _ in 0..<3 { statuses.append(try await client.send(.get, "/v1/networks", headers: Self.bearer(alice)).status) }
            #expect(statuses == [200, 200, 429])
            // Bob shares Alice's address, not her bucket.
            #expect(try await client.send(.get, "/v1/networks", headers: Self.bearer(bob)).status == 200)
        }
        let lines = logs.lines.withLock { $0 }
        #expect(!lines.isEmpty)
        #expect(!lines.contains { $0.contains("alice-4711") || $0.contains("bob-0815") })
    }
}
