import Foundation
import Hummingbird
import LocationStore
import Logging
import NIOCore
import RegionRefresh

/// The admin routes that read or edit the store directly: the import log and networks.
/// Every store call runs on the blocking-work thread with its own connection.
struct AdminStoreRoutes: Sendable {
    let access: StoreAccess
    let bodies: RequestBodyReader
    let reloader: IndexReloader
    /// The import gate: a delete or a merge waits for no import, it is refused while one runs.
    let importRunning: ImportGate

    /// The body of `PUT /admin/networks/{id}`.
    struct NetworkBody: Decodable, Sendable {
        var name: String
        var category: String?
        var isLargeArea: Bool?
        var defaultRadiusMeters: Double?
    }

    /// The body of `PATCH /admin/networks/{id}`: only the fields present change; `null` removes a category or a radius.
    struct NetworkPatch: Decodable, Sendable {
        var change = NetworkChange()

        enum CodingKeys: String, CodingKey { case name, category, isLargeArea, defaultRadiusMeters }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            if c.contains(.name) { change.name = try c.decode(String.self, forKey: .name) }
            if c.contains(.category) { change.category = .some(try c.decodeIfPresent(String.self, forKey: .category)) }
            if c.contains(.isLargeArea) { change.isLargeArea = try c.decode(Bool.self, forKey: .isLargeArea) }
            if c.contains(.defaultRadiusMeters) {
                change.defaultRadiusMeters = .some(try c.decodeIfPresent(Double.self, forKey: .defaultRadiusMeters))
            }
        }
    }

    /// The body of `POST /admin/networks/{id}/merge`.
    struct MergeBody: Decodable, Sendable {
        var into: String
    }

    /// The body of `POST /admin/networks/{id}/aliases`.
    struct AliasBody: Decodable, Sendable {
        var alias: String
    }

    /// `GET /admin/imports?limit=N&cursor=ID`: the newest imports first, a page at a time (`next_cursor` while older
    /// ones follow).
    /// A listing's `limit`: 1...1000, default 100.
    static func pageLimit(_ query: Parameters) throws -> Int {
        guard let text = query["limit"] else { return 100 }
        guard let value = Int(text), (1...1000).contains(value) else {
            throw APIError.badRequest("invalid_parameter", "query parameter 'limit' must be an integer in 1...1000", field: "limit")
        }
        return value
    }

    func register(on admin: RouterGroup<ServerContext>) {
        admin.on(RouteTable.listImports, use: listImports)
        admin.on(RouteTable.showImport, use: showImport)
        admin.on(RouteTable.putNetwork, use: putNetwork)
        admin.on(RouteTable.patchNetwork, use: patchNetwork)
        admin.on(RouteTable.deleteNetwork, use: deleteNetwork)
        admin.on(RouteTable.addAlias, use: addAlias)
        admin.on(RouteTable.mergeNetwork, use: mergeNetwork)
    }

    /// A listing's `cursor`: the id of the last entry of the previous page, a positive integer; nil for the first page.
    static func pageCursor(_ query: Parameters, naming what: String) throws -> Int64? {
        guard let text = query["cursor"] else { return nil }
        guard let value = Int64(text), value > 0 else {
            throw APIError.badRequest("invalid_parameter", "query parameter 'cursor' must be a positive \(what)", field: "cursor")
        }
        return value
    }

    func listImports(_ request: Request, context: ServerContext) async throws -> Response {
        let query = request.uri.queryParameters
        let limit = try Self.pageLimit(query)
        let before = try Self.pageCursor(query, naming: "import id")
        let (count, bound) = (limit, before)
        // One more than asked says whether another page follows.
        var records = try await access.withPrimaryReading { try await $0.imports(limit: count + 1, before: bound) }
        let more = records.count > count
        if more { records.removeLast() }
        return try AdminJSON.response(ImportList(imports: records, nextCursor: more ? records.last?.id.map(String.init) : nil))
    }

    func showImport(_ request: Request, context: ServerContext) async throws -> Response {
        let text = context.parameters.get("id") ?? ""
        guard let id = Int64(text), id > 0 else {
            throw APIError.badRequest("invalid_parameter", "import id must be a positive integer", field: "id")
        }
        // The issues a page at a time (an import logs up to 10,000 per reason): `limit` of them from position `cursor`.
        let query = request.uri.queryParameters
        let limit = try Self.pageLimit(query)
        var from = 0
        if let text = query["cursor"] {
            guard let value = Int(text), value >= 0 else {
                throw APIError.badRequest("invalid_parameter", "query parameter 'cursor' must be an issue position (0 or more)", field: "cursor")
            }
            from = value
        }
        let record = try await access.withPrimaryReading { try await $0.importRecord(id: id) }
        guard var record else { throw APIError.notFound("no import \(id)") }
        let total = record.issues.count
        let start = min(from, total)
        let end = min(total, start + limit)
        record.issues = Array(record.issues[start..<end])
        return try AdminJSON.response(ImportRecordPage(record: record, issueCount: total, nextCursor: end < total ? String(end) : nil))
    }

    /// An import record with one page of its issues: how many it has in all, and where the next page starts.
    struct ImportRecordPage: Encodable {
        var record: ImportRecord
        var issueCount: Int
        var nextCursor: String?

        enum CodingKeys: String, CodingKey {
            case issueCount = "issue_count"
            case nextCursor = "next_cursor"
        }

        func encode(to encoder: any Encoder) throws {
            try record.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(issueCount, forKey: .issueCount)
            try c.encodeIfPresent(nextCursor, forKey: .nextCursor)
        }
    }

    /// Replaces every setting: a field left out is reset (`category` and `default_radius_meters` to none,
    /// `is_large_area` to false). `PATCH` changes only the fields given.
    func putNetwork(_ request: Request, context: ServerContext) async throws -> Response {
        let id = try networkID(context)
        let body = try await bodies.decode(NetworkBody.self, from: request)
        // The document's text rule holds for the text as sent, before trimming.
        let name = try AdminText.required(body.name, field: "name", limit: FieldLimits.networkName)
        if let category = body.category { try AdminText.check(category, field: "category", limit: FieldLimits.category) }
        let change = NetworkChange(
            name: name, category: .some(body.category), isLargeArea: body.isLargeArea ?? false,
            defaultRadiusMeters: .some(body.defaultRadiusMeters))
        return try await save(change, id: id, creating: true)
    }

    func patchNetwork(_ request: Request, context: ServerContext) async throws -> Response {
        let id = try networkID(context)
        var change = try await bodies.decode(NetworkPatch.self, from: request).change
        if let name = change.name { change.name = try AdminText.required(name, field: "name", limit: FieldLimits.networkName) }
        if case .some(.some(let category)) = change.category { try AdminText.check(category, field: "category", limit: FieldLimits.category) }
        return try await save(change, id: id, creating: false)
    }

    /// Checks `change` by the shared rule, applies it and answers the network as stored.
    private func save(_ change: NetworkChange, id: String, creating: Bool) async throws -> Response {
        // A name the document's pattern allows but that could pass for another is well-formed and refused (422).
        if let name = change.name, let problem = NetworkText.problem(name) {
            throw APIError.unprocessable("invalid_field", "field 'name' \(problem)", field: "name")
        }
        if let problem = change.problem() {
            throw APIError.badRequest("invalid_field", "field '\(problem.field)' \(problem.reason)", field: problem.field)
        }
        let network = try await access.withPrimary { store -> Network? in
            let current = try await store.network(id: id)
            guard current != nil || creating else { return nil }
            if current == nil, let problem = NetworkChange.newIdProblem(id, existing: try await store.networks().map(\.network.id)) {
                throw APIError.unprocessable("invalid_parameter", problem, field: "id")
            }
            let network = change.applied(to: current, id: id)
            try await store.upsertNetwork(network)
            return network
        }
        guard let network else { throw APIError.notFound("no network '\(id)'") }
        // Radius defaults and large-area flags are baked into the index, and the catalog of /v1/networks is the
        // index's: the answer waits until this process serves the change (read your writes).
        _ = await reloader.reloadAndWait()
        return try AdminJSON.response(network)
    }

    func deleteNetwork(_ request: Request, context: ServerContext) async throws -> Response {
        let id = try networkID(context)
        try importRunning.refuseWhileOccupied("delete the network")
        let deletion = try await access.withPrimary { try await $0.deleteNetwork(id: id) }
        guard let deletion else { throw APIError.notFound("no network '\(id)'") }
        context.logger.notice(
            "network deleted", metadata: ["network": "\(id)", "locations": "\(deletion.locationsRemoved)", "aliases": "\(deletion.aliasesRemoved)"])
        _ = await reloader.reloadAndWait()
        return try AdminJSON.response(deletion)
    }

    func mergeNetwork(_ request: Request, context: ServerContext) async throws -> Response {
        let from = try networkID(context)
        let body = try await bodies.decode(MergeBody.self, from: request)
        let target = Network.slug(try AdminText.required(body.into, field: "into", limit: FieldLimits.networkId))
        guard target != from else {
            throw APIError.unprocessable("invalid_field", "field 'into' names the network being merged ('\(from)')", field: "into")
        }
        try importRunning.refuseWhileOccupied("merge the networks")
        let merge = try await access.withPrimary { store -> NetworkMerge? in
            guard try await store.network(id: from) != nil, try await store.network(id: target) != nil else { return nil }
            return try await store.mergeNetwork(from, into: target)
        }
        guard let merge else { throw APIError.notFound("no network '\(from)' or '\(target)'") }
        context.logger.notice(
            "networks merged",
            metadata: ["from": "\(from)", "into": "\(target)", "moved": "\(merge.moved)", "deduplicated": "\(merge.deduplicated)"])
        _ = await reloader.reloadAndWait()
        return try AdminJSON.response(merge)
    }

    func addAlias(_ request: Request, context: ServerContext) async throws -> Response {
        let id = try networkID(context)
        let body = try await bodies.decode(AliasBody.self, from: request)
        let alias = try AdminText.required(body.alias, field: "alias", limit: FieldLimits.alias)
        guard !NetworkText.hasBidiControl(alias) else {
            throw APIError.unprocessable("invalid_field", "field 'alias' must not hold bidirectional control characters", field: "alias")
        }
        let known = try await access.withPrimary { store -> Bool in
            guard try await store.network(id: id) != nil else { return false }
            try await store.addAdminAlias(alias, networkId: id)
            return true
        }
        guard known else { throw APIError.notFound("no network '\(id)'") }
        _ = await reloader.reloadAndWait()
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
        var nextCursor: String?
    }

    struct AliasCreated: Encodable {
        var networkId: String
        var alias: String
    }
}

/// Admin responses are small and rare: `JSONEncoder` with the wire conventions is fine here.
enum AdminJSON {
    static func response<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: try encoded(value))))
    }

    static func encoded<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
