import ChainImport
import Foundation
import Hummingbird
import LocationStore
import Logging

/// `POST /admin/locations` and `PUT`, `PATCH`, `DELETE /admin/locations/{id}`: one store fixed without re-importing
/// its file. Each write is a one-row import (`LocationEditor`): the import's checks and reason codes, an entry in the
/// import log, a change version the other replicas follow; the answer waits until this server serves it (read your
/// writes). One at a time with imports: an edit while an import runs is refused with a time to retry.
struct AdminLocationRoutes: Sendable {
    let access: StoreAccess
    let bodies: RequestBodyReader
    let reloader: IndexReloader
    let importRunning: ImportGate
    /// Dates the gate's holder (a 409 says since when an edit runs).
    let clock: ServerClock

    /// Registers the routes on the admin group (behind its bearer token).
    func register(on admin: RouterGroup<ServerContext>) {
        admin.on(RouteTable.createLocation, use: create)
        admin.on(RouteTable.showLocation, use: show)
        admin.on(RouteTable.putLocation, use: replace)
        admin.on(RouteTable.patchLocation, use: patch)
        admin.on(RouteTable.deleteLocation, use: delete)
    }

    func create(_ request: Request, context: ServerContext) async throws -> Response {
        let body = try await bodies.decode(LocationBody.self, from: request).checked()
        let edited = try await edit(context) { try await $0.add(body.fields) }
        return try AdminJSON.response(
            LocationEdited(edited), status: .created, headers: [.location: "/admin/locations/\(Self.pathSegment(edited.location.id))"])
    }

    func show(_ request: Request, context: ServerContext) async throws -> Response {
        let id = try locationID(context)
        let location = try await access.withPrimaryReading { try await $0.location(resolving: id) }
        guard let location else { throw APIError.notFound("no location '\(id)'") }
        return try AdminJSON.response(AdminLocation(location))
    }

    func replace(_ request: Request, context: ServerContext) async throws -> Response {
        let id = try locationID(context)
        let body = try await bodies.decode(LocationBody.self, from: request).checked()
        return try AdminJSON.response(LocationEdited(try await edit(context) { try await $0.replace(id, with: body.fields) }))
    }

    func patch(_ request: Request, context: ServerContext) async throws -> Response {
        let id = try locationID(context)
        let body = try await bodies.decode(LocationBody.self, from: request).checked()
        return try AdminJSON.response(LocationEdited(try await edit(context) { try await $0.update(id) { body.apply(to: &$0) } }))
    }

    func delete(_ request: Request, context: ServerContext) async throws -> Response {
        let id = try locationID(context)
        _ = try await edit(context) { editor -> LocationEditor.Outcome? in
            try await editor.delete(id)
            return nil
        }
        context.logger.notice("location deleted", metadata: ["location": "\(id)"])
        return Response(status: .noContent)
    }

    /// Runs one edit inside the import gate on the primary store, maps the editor's refusals to answers, and waits
    /// until the index serves the result.
    private func edit<T: Sendable>(_ context: ServerContext, _ body: @Sendable @escaping (LocationEditor) async throws -> T) async throws -> T {
        let holder = ImportGate.Holder(kind: .edit, keyId: context.admin?.keyId ?? "", since: clock.now())
        if let other = await importRunning.enter(holder) { throw APIError.busy(other, "edit the location when it has finished") }
        defer { importRunning.leave() }
        let result: T
        do {
            result = try await access.withPrimary { try await body(LocationEditor(store: $0)) }
        } catch let failure as LocationEditor.Failure {
            throw Self.apiError(failure)
        } catch let error as ImportError {
            throw APIError.unprocessable("invalid_location", error.description)
        }
        _ = await reloader.reloadAndWait()
        return result
    }

    /// An id as one path segment: an external id may hold '/', '?', '#' or spaces.
    static func pathSegment(_ id: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#")
        return id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id
    }

    static func apiError(_ failure: LocationEditor.Failure) -> APIError {
        switch failure {
        case .notFound: APIError.notFound(failure.description)
        case .exists(let id):
            APIError(
                .conflict, code: "location_exists",
                message: failure.description + "; PUT or PATCH /admin/locations/\(pathSegment(id)) changes it")
        case .missingNetwork, .unknownNetwork: APIError.unprocessable("unknown_network", failure.description, field: "network")
        case .conflict: APIError.unprocessable("invalid_field", failure.description)
        case .rejected(let code, _): APIError.unprocessable(code, failure.description)
        }
    }

    /// The path's location id, as the store writes it (`loc_<network>_<id>`).
    private func locationID(_ context: ServerContext) throws -> String {
        let raw = (context.parameters.get("id") ?? "").removingPercentEncoding ?? ""
        do {
            return try AdminText.required(raw, field: "id", limit: FieldLimits.locationId + FieldLimits.networkId + 5)
        } catch var error as APIError {
            error.code = "invalid_parameter"
            throw error
        }
    }
}
