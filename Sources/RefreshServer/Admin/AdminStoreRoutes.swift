import Foundation
import Hummingbird
import LocationStore
import NIOCore
import RegionRefresh

/// The admin routes that read or edit the store directly: the import log and networks.
/// Every store call runs on the blocking-work thread with its own connection.
struct AdminStoreRoutes: Sendable {
    let access: StoreAccess
    let bodies: RequestBodyReader
    let reloader: IndexReloader

    /// The body of `PUT /admin/networks/{id}`.
    struct NetworkBody: Decodable, Sendable {
        var name: String
        var category: String?
        var isLargeArea: Bool?
        var defaultRadiusMeters: Double?
    }

    /// The body of `POST /admin/networks/{id}/aliases`.
    struct AliasBody: Decodable, Sendable {
        var alias: String
    }

    func listImports(_ request: Request, context: ServerContext) async throws -> Response {
        var limit = 100
        if let text = request.uri.queryParameters["limit"] {
            guard let value = Int(text), (1...1000).contains(value) else {
                throw APIError.badRequest("invalid_parameter", "query parameter 'limit' must be an integer in 1...1000", field: "limit")
            }
            limit = value
        }
        let count = limit
        let records = try await access.withReader { try await $0.imports(limit: count) }
        return try AdminJSON.response(ImportList(imports: records))
    }

    func showImport(_ request: Request, context: ServerContext) async throws -> Response {
        let text = context.parameters.get("id") ?? ""
        guard let id = Int64(text), id > 0 else {
            throw APIError.badRequest("invalid_parameter", "import id must be a positive integer", field: "id")
        }
        let record = try await access.withReader { try await $0.importRecord(id: id) }
        guard let record else { throw APIError.notFound("no import \(id)") }
        return try AdminJSON.response(record)
    }

    func putNetwork(_ request: Request, context: ServerContext) async throws -> Response {
        let id = try networkID(context)
        let body = try await bodies.decode(NetworkBody.self, from: request)
        let name = try AdminText.required(body.name, field: "name", limit: FieldLimits.networkName)
        if let radius = body.defaultRadiusMeters, !EngineConfiguration.isValidNetworkRadius(radius) {
            throw APIError.badRequest(
                "invalid_field", "field 'default_radius_meters' must be \(EngineConfiguration.networkRadiusRule), or null",
                field: "default_radius_meters")
        }
        if let category = body.category { try AdminText.check(category, field: "category", limit: FieldLimits.category) }
        let network = Network(
            id: id, name: name, category: body.category, isLargeArea: body.isLargeArea ?? false,
            defaultRadiusMeters: body.defaultRadiusMeters)
        try await access.withPrimary { try await $0.upsertNetwork(network) }
        // Radius defaults and large-area flags are baked into the index.
        reloader.scheduleReload()
        return try AdminJSON.response(network)
    }

    func addAlias(_ request: Request, context: ServerContext) async throws -> Response {
        let id = try networkID(context)
        let body = try await bodies.decode(AliasBody.self, from: request)
        let alias = try AdminText.required(body.alias, field: "alias", limit: FieldLimits.alias)
        let known = try await access.withPrimary { store -> Bool in
            guard try await store.network(id: id) != nil else { return false }
            try await store.addAlias(alias, networkId: id)
            return true
        }
        guard known else { throw APIError.notFound("no network '\(id)'") }
        reloader.scheduleReload()
        return try AdminJSON.response(AliasCreated(networkId: id, alias: alias), status: .created)
    }

    /// The path's network id, taken as its slug ("Costco" is costco), so that any spelling of a brand finds it. A spelling
    /// without a letter or digit has no slug and so names no network.
    private func networkID(_ context: ServerContext) throws -> String {
        let raw = (context.parameters.get("id") ?? "").removingPercentEncoding ?? ""
        do {
            _ = try AdminText.required(raw, field: "id", limit: FieldLimits.networkId)
        } catch var error as APIError {
            error.code = "invalid_parameter"
            throw error
        }
        let id = Network.slug(raw)
        guard !id.isEmpty, !FieldLimits.exceeds(id, FieldLimits.networkId) else {
            throw APIError.notFound("'\(raw.prefix(100))' names no network: an id needs a letter or a digit")
        }
        return id
    }

    struct ImportList: Encodable {
        var imports: [ImportRecord]
    }

    struct AliasCreated: Encodable {
        var networkId: String
        var alias: String
    }
}

/// Admin responses are small and rare: `JSONEncoder` with the wire conventions is fine here.
enum AdminJSON {
    static func response<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: try encoded(value))))
    }

    static func encoded<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
