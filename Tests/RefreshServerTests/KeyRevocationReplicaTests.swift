import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationStore
import Logging
import PostGISStore
import TestSupport
import Testing

@testable import RefreshServer

/// Two servers on one store, as two replicas behind a load balancer: a key made through one works on the other, and a
/// revocation through one is honoured by the other from its next read of the keys (every `--store-poll-seconds`), though
/// the other still holds the key in its snapshot when the revocation is made.
@Suite("Key revocation across replicas")
struct KeyRevocationReplicaTests {
    enum Kind: String, CaseIterable, Sendable { case sqlite, postgis }

    static var kinds: [Kind] { PostgresServers.primary != nil || PostgresServers.required ? Kind.allCases : [.sqlite] }

    /// B's key refresh interval.
    static let interval = Duration.milliseconds(500)

    @Test("a key made on A works on B; revoked on A, B refuses it from its next read of the keys", arguments: kinds)
    func revocation(kind: Kind) async throws {
        let database: String
        var cleanup: @Sendable () async -> Void = {}
        switch kind {
        case .sqlite:
            let store = try TestStore()
            database = store.path
            cleanup = { store.remove() }
        case .postgis:
            let url = try await PostgresServers.createStore()
            database = url.description
            cleanup = { await PostgresServers.drop(url) }
        }
        do {
            let a = try await Self.server(database, poll: .seconds(60))
            let b = try await Self.server(database, poll: Self.interval)
            try await a.application.test(.router) { clientA in
                try await b.application.test(.router) { clientB in
                    let key = try await AdminRoleTests.makeKey(RouterClient(base: clientA), role: .read, name: "replicated")
                    let bearer: HTTPFields = [.authorization: "Bearer \(key.token)"]
                    let taken = try await eventually(within: .seconds(10)) {
                        try await clientB.send(.get, "/admin/whoami", headers: bearer).status == 200
                    }
                    #expect(taken, "B never accepted a key made on A")

                    // Reads of B's keys begun before the revocation's answer may have read before it committed; one
                    // begun after cannot, and only a read begun after the request was sent can drop the key.
                    let readsBeforeRequest = b.keys.readsBegun
                    let revoked = try await clientA.send(.delete, "/admin/keys/\(key.id)", route: "/admin/keys/{id}", headers: .admin)
                    #expect(revoked.status == 200)
                    let readsAtAnswer = b.keys.readsBegun
                    #expect(try await clientA.send(.get, "/admin/whoami", headers: bearer).status == 403)
                    var acceptedAfterARead = false
                    var readsWhenRefused = 0
                    let refused = try await eventually(within: .seconds(60)) {
                        let readsDone = b.keys.readsBegun
                        let status = try await clientB.send(.get, "/admin/whoami", headers: bearer).status
                        // Reads run one at a time: with two begun since the answer, the first of them has ended.
                        if status == 200 && readsDone > readsAtAnswer + 1 { acceptedAfterARead = true }
                        readsWhenRefused = b.keys.readsBegun
                        return status == 403
                    }
                    #expect(refused, "B still accepts a key revoked on A")
                    // The bound is B's next read of its keys, not a time: B reads them every `interval`, and on a
                    // loaded machine that read itself can wait seconds for a thread (a CI run took 6.6 s).
                    #expect(!acceptedAfterARead, "B accepted the revoked key after a read of its keys begun since the revocation")
                    #expect(readsWhenRefused > readsBeforeRequest, "B refused the key without reading its keys again")
                }
            }
        } catch {
            await cleanup()
            throw error
        }
        await cleanup()
    }

    static func server(_ database: String, poll: Duration) async throws -> ServerBuilder.Built {
        var configuration = ServerConfiguration(database: database, host: "127.0.0.1", port: 0, adminToken: adminToken)
        configuration.rateLimit = nil
        configuration.storePollSeconds = Double(poll.components.seconds) + Double(poll.components.attoseconds) / 1e18
        configuration.connections = .forTests
        var logger = Logger(label: "oncue.test")
        logger.logLevel = .critical
        return try await ServerBuilder.build(configuration: configuration, logger: logger)
    }
}
