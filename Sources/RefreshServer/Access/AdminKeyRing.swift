import Foundation
import LocationStore
import Logging
import ServiceLifecycle
import Synchronization

/// The admin credentials a server honours: the configured bootstrap token, and a snapshot of the store's unrevoked
/// keys. The snapshot is read again every `refreshInterval`, after this server creates or revokes a key, and when an
/// unknown token is presented (at most once a second, so guessing cannot load the store). A key created on any
/// replica therefore works on every replica within a second, and a revocation on any replica is honoured by all of them
/// within `refreshInterval`.
///
/// Lookups are synchronous (a SHA-256 and a dictionary read), so the connection handler can ask them of a request's
/// head before any route runs.
package final class AdminKeyRing: Service, Sendable {
    private struct Snapshot {
        var byHash: [String: AdminPrincipal] = [:]
        /// Reads of the keys begun so far, whether they succeeded or not.
        var readsBegun = 0
        /// When the last read of the keys began, whether it succeeded or not: an unknown token asks for another only a
        /// second after it.
        var triedAt: Duration?
    }

    private let snapshot = Mutex(Snapshot())
    /// One read of the keys at a time: concurrent unknown tokens wait for one read rather than start one each, and a
    /// read that began before a revocation cannot land after the read that follows it.
    private let reading = AsyncMutex()
    private let bootstrap: [UInt8]?
    private let access: StoreAccess
    let refreshInterval: Duration
    /// Spaces the reads an unknown token asks for, and dates the keys created and revoked through the API.
    let clock: ServerClock
    private let logger: Logger
    private static let missRefreshInterval = Duration.seconds(1)

    init(bootstrapToken: String?, access: StoreAccess, refreshInterval: Duration, clock: ServerClock, logger: Logger) {
        bootstrap = bootstrapToken.map { Array($0.utf8) }
        self.access = access
        self.refreshInterval = refreshInterval
        self.clock = clock
        self.logger = logger
    }

    /// The keys a server with `configuration` honours: its bootstrap token, and the store's keys read every
    /// `storePollSeconds`.
    convenience init(configuration: ServerConfiguration, access: StoreAccess, clock: ServerClock, logger: Logger) {
        self.init(
            bootstrapToken: configuration.adminToken, access: access, refreshInterval: .seconds(configuration.storePollSeconds), clock: clock,
            logger: logger)
    }

    /// Reads of the store's keys begun so far: one begun after a revocation committed honours it (tests).
    package var readsBegun: Int { snapshot.withLock { $0.readsBegun } }

    /// Whether the admin API exists: a bootstrap token is configured, or the store holds an unrevoked key. Without
    /// either every admin route answers 404, so a server nobody configured is closed rather than open.
    var isEnabled: Bool { bootstrap != nil || snapshot.withLock { !$0.byHash.isEmpty } }

    /// The principal of a bearer token, from what is loaded (no store read).
    func principal(forToken token: Substring) -> AdminPrincipal? {
        if let bootstrap, BearerToken.constantTimeEquals(Array(token.utf8), bootstrap) { return .bootstrap }
        guard token.hasPrefix(AdminKeySecret.prefix) else { return nil }
        let hash = AdminKeySecret.sha256Hex(token)
        return snapshot.withLock { $0.byHash[hash] }
    }

    /// The principal of a bearer token; an unknown one reads the store's keys again first unless they were read in the
    /// last second (a key just created on another replica).
    func authenticate(token: Substring) async -> AdminPrincipal? {
        if let known = principal(forToken: token) { return known }
        guard token.hasPrefix(AdminKeySecret.prefix) else { return nil }
        try? await refresh(unlessTriedWithin: Self.missRefreshInterval)
        return principal(forToken: token)
    }

    /// Whether `principal` is still honoured, from a fresh read of the store's keys: asked before a long write commits
    /// (an upload that arrived over minutes), so that a key revoked meanwhile cannot finish what it began. When the keys
    /// cannot be read, the write is not honoured either.
    func stillHonours(_ principal: AdminPrincipal) async -> Bool {
        if principal.keyId == AdminPrincipal.bootstrapId { return bootstrap != nil }
        guard (try? await refresh()) != nil else { return false }
        return snapshot.withLock { $0.byHash.values.contains { $0.keyId == principal.keyId && $0.role >= principal.role } }
    }

    /// Reads the store's unrevoked keys, unless a read began within `recent` (then the caller waits for that one). On
    /// failure the previous snapshot stays: while the store cannot be reached, no admin write can succeed anyway.
    func refresh(unlessTriedWithin recent: Duration? = nil) async throws {
        try await reading.withLock {
            if let recent, let tried = snapshot.withLock({ $0.triedAt }), clock.uptime() - tried < recent { return }
            snapshot.withLock {
                $0.triedAt = clock.uptime()
                $0.readsBegun += 1
            }
            let keys = try await access.withPrimaryReading { store in try await Self.ledger(store).adminKeys() }
            var byHash: [String: AdminPrincipal] = [:]
            for key in keys where !key.isRevoked { byHash[key.secretSHA256] = AdminPrincipal(key) }
            snapshot.withLock { $0.byHash = byHash }
        }
    }

    package func run() async throws {
        try? await refresh()
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            let interval = refreshInterval
            // nil when shutdown began first.
            guard (try? await cancelWhenGracefulShutdown({ try await self.clock.sleep(for: interval) })) != nil else { return }
            do { try await refresh() } catch {
                logger.warning("could not read the admin keys; the last ones read stay in force", metadata: ["error": "\(error)"])
            }
        }
    }

    /// The store as an access ledger (both stores are).
    static func ledger(_ store: any LocationStore) throws -> any AccessLedger {
        guard let ledger = store as? any AccessLedger else { throw StoreError.invalidArgument("this store keeps no admin keys") }
        return ledger
    }
}
