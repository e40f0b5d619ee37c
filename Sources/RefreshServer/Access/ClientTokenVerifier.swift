import Crypto
import Foundation
import JWTKit
import Synchronization

/// Verifies the app backend's access tokens on the public routes: the header (`TokenHeader`: the algorithm is the
/// key's, no critical extension, a known key id), the signature (HS256, or a JWKS's keys), expiry and not-before with a
/// leeway for clock skew, a lifetime no longer than `maxLifetime` from an issue time not in the future, and the issuer
/// and audience when configured. A verified token is remembered until it expires (up to `cacheLimit` of them), so a
/// phone's repeated requests cost a dictionary read, not a signature check.
final class ClientTokenVerifier: Sendable {
    /// What a verified token grants: whom it counts against (its subject, as a keyed hash) and until when.
    struct Verified: Sendable {
        var subject: ClientKey
        var expires: Date
    }

    /// Why a token was refused, as RFC 6750's `error_description`.
    struct Refusal: Error, Sendable {
        var reason: String
    }

    /// The claims OnCue reads; others are ignored.
    struct Claims: JWTPayload {
        var sub: SubjectClaim
        var exp: ExpirationClaim
        var nbf: NotBeforeClaim?
        var iat: IssuedAtClaim?
        var iss: IssuerClaim?
        var aud: AudienceClaim?

        /// Checked by `ClientTokenVerifier.check` with its clock and leeway, not here.
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    static let leeway: TimeInterval = 60
    static let cacheLimit = 10_000

    private let keys: JWTKeyCollection
    /// What the header must say: each key's id and algorithm.
    private let signers: [TokenHeader.Signer]
    private let issuer: String?
    private let audience: String?
    private let maxLifetime: TimeInterval
    private let subjectKey: SymmetricKey
    private let cache = Mutex<[String: Verified]>([:])
    private let now: @Sendable () -> Date

    private init(
        keys: JWTKeyCollection, signers: [TokenHeader.Signer], issuer: String?, audience: String?, maxLifetime: Duration,
        now: @escaping @Sendable () -> Date
    ) {
        self.keys = keys
        self.signers = signers
        self.issuer = issuer
        self.audience = audience
        self.maxLifetime = maxLifetime.inSeconds
        self.now = now
        // Per process: a subject's hash links its requests within one run, and nothing across runs or to the user's id.
        subjectKey = SymmetricKey(size: .bits256)
    }

    /// A verifier of `key`'s tokens; throws when a JWKS document holds no key JWTKit can use.
    static func make(
        key: ClientJWTKey, issuer: String?, audience: String?, maxLifetime: Duration = ServerSettings.clientJWTMaxLifetime.defaultValue,
        now: @escaping @Sendable () -> Date = Date.init
    ) async throws -> ClientTokenVerifier {
        let keys = JWTKeyCollection()
        let signers: [TokenHeader.Signer]
        switch key {
        case .hmacSecret(let secret):
            await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
            signers = [.init(keyId: nil, algorithm: "HS256")]
        case .jwks(let json):
            // An identity provider's keys sign the tokens of every app it serves: only the audience says a token is
            // this app's.
            guard audience != nil else {
                throw ConfigurationError(
                    "--client-jwt with a JWKS document needs --client-jwt-audience (ONCUE_CLIENT_JWT_AUDIENCE): the provider's keys also sign other apps' tokens"
                )
            }
            do { try await keys.add(jwksJSON: json) } catch {
                throw ConfigurationError("--client-jwt: the JWKS document's keys cannot be used (\(error))")
            }
            // ClientJWTKey refused a document whose keys lack `alg`.
            signers = ((try? JSONDecoder().decode(JWKS.self, from: Data(json.utf8)))?.keys ?? []).map {
                TokenHeader.Signer(keyId: $0.keyIdentifier?.string, algorithm: $0.algorithm?.rawValue ?? "")
            }
        }
        return ClientTokenVerifier(keys: keys, signers: signers, issuer: issuer, audience: audience, maxLifetime: maxLifetime, now: now)
    }

    /// The grant of a token verified before, nil when it was not (or its entry was dropped); a refusal once it expired.
    func cached(_ token: Substring) throws(Refusal) -> Verified? {
        guard let known = cache.withLock({ $0[String(token)] }) else { return nil }
        guard known.expires.addingTimeInterval(Self.leeway) > now() else { throw Refusal(reason: "the token has expired") }
        return known
    }

    /// The verified token's grant, or a refusal saying why.
    func verify(_ token: Substring) async throws(Refusal) -> Verified {
        if let known = try cached(token) { return known }
        let text = String(token)
        let at = now()
        // JWTKit takes the algorithm from the key and ignores the rest of the header: what it says is checked here.
        try TokenHeader.check(token, against: signers)
        let claims: Claims
        do { claims = try await keys.verify(text, as: Claims.self) } catch {
            throw Refusal(reason: "the token's signature, form or required claims (sub, exp) are not valid")
        }
        try check(claims, at: at)
        let verified = Verified(subject: .named("sub:" + subjectHash(claims.sub.value)), expires: claims.exp.value)
        cache.withLock { cache in
            if cache.count >= Self.cacheLimit {
                cache = cache.filter { $0.value.expires.addingTimeInterval(Self.leeway) > at }
                if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            }
            cache[text] = verified
        }
        return verified
    }

    private func check(_ claims: Claims, at: Date) throws(Refusal) {
        guard claims.exp.value.addingTimeInterval(Self.leeway) > at else { throw Refusal(reason: "the token has expired") }
        if let nbf = claims.nbf, nbf.value.addingTimeInterval(-Self.leeway) > at { throw Refusal(reason: "the token is not valid yet") }
        if let iat = claims.iat, iat.value.addingTimeInterval(-Self.leeway) > at {
            throw Refusal(reason: "the token's issue time (iat) is in the future")
        }
        // A token that lives for years is a stolen token that never stops working: its lifetime is bounded from when it
        // was issued (or from now, without iat).
        let lifetime = claims.exp.value.timeIntervalSince(claims.iat?.value ?? at)
        guard lifetime <= maxLifetime + Self.leeway else {
            throw Refusal(reason: "the token's lifetime (exp − iat) exceeds the \(Int(maxLifetime)) s this server allows")
        }
        if let issuer, claims.iss?.value != issuer { throw Refusal(reason: "the token's issuer is not the configured one") }
        if let audience, !(claims.aud?.value.contains(audience) ?? false) {
            throw Refusal(reason: "the token's audience does not include the configured one")
        }
        guard !claims.sub.value.isEmpty else { throw Refusal(reason: "the token has no subject") }
    }

    /// A subject as logs, metrics and the rate limiter see it: 16 hex digits of a keyed hash, never the user's id.
    func subjectHash(_ subject: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array(subject.utf8), using: subjectKey)
        return mac.prefix(8).map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
