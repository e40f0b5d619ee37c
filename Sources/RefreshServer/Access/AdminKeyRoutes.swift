import Foundation
import Hummingbird
import LocationStore
import Logging

/// `/admin/keys`, `/admin/audit` and `/admin/whoami`: admin keys made, listed and revoked without a restart, the audit
/// log read a page at a time, and the role of the key asking (the console shows read-only views for `read`).
struct AdminKeyRoutes: Sendable {
    let access: StoreAccess
    let bodies: RequestBodyReader
    let keys: AdminKeyRing
    let audit: AuditRecorder

    /// The body of `POST /admin/keys`. Other members are refused: a misspelt `role` must not make a key of another role.
    struct KeyBody: Decodable, Sendable {
        var name: String
        var role: AdminRole

        enum CodingKeys: String, CodingKey, CaseIterable { case name, role }

        init(from decoder: any Decoder) throws {
            try UnknownMembers.refuse(in: decoder, knowing: CodingKeys.self, what: "a key")
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            role = try c.decode(AdminRole.self, forKey: .role)
        }
    }

    struct KeyList: Encodable, Sendable { var keys: [AdminKeyView] }

    struct AuditPage: Encodable, Sendable {
        var entries: [AuditEntry]
        var nextCursor: String?
    }

    struct WhoAmI: Encodable, Sendable {
        var keyId: String
        var name: String
        var role: AdminRole
    }

    func register(on admin: RouterGroup<ServerContext>) {
        admin.on(RouteTable.listKeys, use: listKeys)
        admin.on(RouteTable.createKey, use: createKey)
        admin.on(RouteTable.revokeKey, use: revokeKey)
        admin.on(RouteTable.listAudit, use: listAudit)
        admin.on(RouteTable.whoami, use: whoami)
    }

    func listKeys(_ request: Request, context: ServerContext) async throws -> Response {
        let stored = try await access.withPrimaryReading { store in try await AdminKeyRing.ledger(store).adminKeys() }
        return try AdminJSON.response(KeyList(keys: stored.map { AdminKeyView($0) }))
    }

    func createKey(_ request: Request, context: ServerContext) async throws -> Response {
        let body = try await bodies.decode(KeyBody.self, from: request)
        let name: String
        do { name = try AdminKeySecret.checkedName(body.name) } catch {
            throw APIError.unprocessable("invalid_field", error.description, field: "name")
        }
        let (key, token) = AdminKeySecret.mint(name: name, role: body.role, at: keys.clock.now())
        try await access.withPrimary { store in try await AdminKeyRing.ledger(store).insertAdminKey(key) }
        try? await keys.refresh()
        context.logger.notice(
            "admin key created", metadata: ["key": "\(key.id)", "role": "\(key.role.rawValue)", "by": "\(context.admin?.keyId ?? "")"])
        // Location names the key, so that the audit entry of its creation does too.
        return try AdminJSON.response(AdminKeyView(key, token: token), status: .created, headers: [.location: "/admin/keys/\(key.id)"])
    }

    func revokeKey(_ request: Request, context: ServerContext) async throws -> Response {
        guard let id = context.parameters.get("id"), !id.isEmpty else { throw APIError.notFound("no key") }
        guard id != AdminPrincipal.bootstrapId else {
            throw APIError.unprocessable(
                "invalid_field", "the bootstrap token is revoked by removing ONCUE_ADMIN_TOKEN from the server's settings", field: "id")
        }
        let revoked = try await access.withPrimary { store in try await AdminKeyRing.ledger(store).revokeAdminKey(id: id, at: keys.clock.now()) }
        guard let revoked else { throw APIError.notFound("no admin key '\(id)'") }
        try? await keys.refresh()
        context.logger.notice("admin key revoked", metadata: ["key": "\(id)", "by": "\(context.admin?.keyId ?? "")"])
        return try AdminJSON.response(AdminKeyView(revoked))
    }

    /// `GET /admin/audit?limit=N&cursor=ID`: the newest entries first (`next_cursor` while older ones follow).
    func listAudit(_ request: Request, context: ServerContext) async throws -> Response {
        let query = request.uri.queryParameters
        let limit = try AdminStoreRoutes.pageLimit(query)
        let bound = try AdminStoreRoutes.pageCursor(query, naming: "audit entry id")
        // Entries still waiting for the store are written first, so the page shows every write made (but those made
        // while an import runs, which wait for it to end).
        await audit.flush()
        var entries = try await access.withPrimaryReading { store in
            try await AdminKeyRing.ledger(store).auditEntries(limit: limit + 1, before: bound)
        }
        let more = entries.count > limit
        if more { entries.removeLast() }
        return try AdminJSON.response(AuditPage(entries: entries, nextCursor: more ? entries.last?.id.map(String.init) : nil))
    }

    func whoami(_ request: Request, context: ServerContext) async throws -> Response {
        guard let principal = context.admin else { throw APIError(.unauthorized, code: "unauthorized", message: "no admin key") }
        return try AdminJSON.response(WhoAmI(keyId: principal.keyId, name: principal.name, role: principal.role))
    }
}
