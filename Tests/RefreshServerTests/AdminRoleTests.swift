import Foundation
import HTTPTypes
import HummingbirdTesting
import LocationStore
import SQLiteStore
import TestSupport
import Testing

@testable import RefreshServer

/// Keys of each role on each admin route: a role below the route's is refused (403 `insufficient_role`) before the
/// handler runs, one at or above it gets past the guard, and every refused write is in the audit log.
@Suite("Admin roles")
struct AdminRoleTests {
    /// Makes a key of `role` through the API with the bootstrap token; returns its id and token.
    static func makeKey(_ client: some ServerClient, role: AdminRole, name: String? = nil) async throws -> (id: String, token: String) {
        let made = try await client.send(
            .post, "/admin/keys", headers: .admin, body: #"{"name": "\#(name ?? role.rawValue + " key")", "role": "\#(role.rawValue)"}"#)
        try #require(made.status == 201, "\(made.text)")
        return (try #require(made.json?["id"]?.string), try #require(made.json?["token"]?.string))
    }

    /// A path of `route` with its parameter filled by a name nothing has.
    static func concretePath(_ route: RouteSpec) -> String {
        route.path.replacingOccurrences(of: "{id}", with: "nothing-here")
    }

    @Test("each role on each admin route: refused below the route's role, let through at or above it")
    func roleMatrix() async throws {
        try await withServer { client, _ in
            var keys: [AdminRole: String] = [:]
            for role in AdminRole.allCases { keys[role] = try await Self.makeKey(client, role: role).token }
            var refusedWrites = 0
            for route in RouteTable.all where route.access == .admin {
                let needed = try #require(route.role)
                for role in AdminRole.allCases {
                    let hasBody = [.post, .put, .patch].contains(route.method)
                    let reply = try await client.send(
                        route.method, Self.concretePath(route), route: route.path, headers: [.authorization: "Bearer \(keys[role]!)"],
                        body: hasBody ? "{}" : nil)
                    let code = reply.json?["error"]?.string
                    if role < needed {
                        #expect(reply.status == 403 && code == "insufficient_role", "\(role) on \(route.method) \(route.path): \(reply.text)")
                        if route.method != .get { refusedWrites += 1 }
                    } else {
                        #expect(reply.status != 401 && reply.status != 403, "\(role) on \(route.method) \(route.path): \(reply.text)")
                    }
                }
            }
            #expect(refusedWrites > 10)
            // Every refused write is in the log, with its key and status.
            let audit = try await client.send(.get, "/admin/audit?limit=1000", headers: .admin)
            let refused = audit.json?["entries"]?.array?.filter { $0["result"]?.string == "403" && $0["detail"]?.string == "insufficient_role" }
            #expect(refused?.count == refusedWrites)
        }
    }

    @Test("no header is 401, an unknown or revoked key 403, and the console learns its role from whoami")
    func authentication() async throws {
        try await withServer { client, _ in
            #expect(try await client.send(.get, "/admin/imports").status == 401)
            let unknown = try await client.send(.get, "/admin/imports", headers: [.authorization: "Bearer oncue_k_aaaaaaaaaaaa_guess"])
            #expect(unknown.status == 403 && unknown.json?["error"]?.string == "forbidden")
            let reader = try await Self.makeKey(client, role: .read, name: "analyst")
            let whoami = try await client.send(.get, "/admin/whoami", headers: [.authorization: "Bearer \(reader.token)"])
            #expect(whoami.json?["role"]?.string == "read" && whoami.json?["key_id"]?.string == reader.id)
            #expect(try await client.send(.get, "/admin/whoami", headers: .admin).json?["role"]?.string == "admin")
            // The listing never shows a token or a hash.
            let listed = try await client.send(.get, "/admin/keys", headers: .admin)
            #expect(!listed.text.contains(reader.token) && !listed.text.contains(AdminKeySecret.sha256Hex(reader.token)))
            let revoked = try await client.send(.delete, "/admin/keys/\(reader.id)", route: "/admin/keys/{id}", headers: .admin)
            #expect(revoked.status == 200 && revoked.json?["revoked_at"]?.string != nil)
            let after = try await client.send(.get, "/admin/whoami", headers: [.authorization: "Bearer \(reader.token)"])
            #expect(after.status == 403)
            let bootstrap = try await client.send(.delete, "/admin/keys/bootstrap", route: "/admin/keys/{id}", headers: .admin)
            #expect(bootstrap.status == 422)
        }
    }

    @Test("without a bootstrap token the admin API is 404 until a key exists, then it takes that key")
    func disabledUntilAKeyExists() async throws {
        let store = try TestStore()
        defer { store.remove() }
        let noBootstrapToken: (inout ServerConfiguration) -> Void = { $0.adminToken = nil }
        try await withServer(store: store, configure: noBootstrapToken) { client, _ in
            #expect(try await client.send(.get, "/admin/imports").status == 404)
            // Not even another scheme learns that an admin API is there.
            #expect(try await client.send(.get, "/admin/imports", headers: [.authorization: "Basic eDp5"]).status == 404)
            // As `oncue keys create` makes one: in the store, behind the server's back.
            let (key, token) = AdminKeySecret.mint(name: "first", role: .import)
            try SQLiteLocationStore(path: store.path).insertAdminKey(key)
            // An unknown token reads the keys again at most once a second: bounded, not immediate.
            let taken = try await eventually(within: .seconds(10)) {
                try await client.send(.get, "/admin/imports", headers: [.authorization: "Bearer \(token)"]).status == 200
            }
            #expect(taken)
            #expect(try await client.send(.get, "/admin/imports").status == 401)
        }
    }
}
