import Foundation
import Geo
import Hummingbird
import LocationStore
import Logging
import NIOCore
import OnCueContract
import RegionRefresh

/// `/v1/*`, the probes, `/metrics` and `/openapi.yaml`.
struct PublicRoutes: Sendable {
    let engine: RegionRefreshEngine
    let catalog: NetworkCatalog
    let metrics: ServerMetrics
    let bodies: RequestBodyReader
    let openAPI: ByteBuffer
    let reloader: IndexReloader
    let executors: ServerExecutors
    let clock: ServerClock

    private static let json: HTTPFields = [.contentType: "application/json"]

    /// `/healthz`, `/readyz` (each with its `HEAD`) and `/metrics`: outside the API's token and rate limit.
    func registerProbes(on router: Router<ServerContext>) {
        router.on(RouterPath(RouteTable.healthz.routerPath), method: .get, use: healthz)
        router.on(RouterPath(RouteTable.healthzHead.routerPath), method: .head, use: Self.head(of: healthz))
        router.on(RouterPath(RouteTable.readyz.routerPath), method: .get, use: readyz)
        router.on(RouterPath(RouteTable.readyzHead.routerPath), method: .head, use: Self.head(of: readyz))
        router.on(RouterPath(RouteTable.metrics.routerPath), method: .get, use: metricsText)
    }

    func healthz(_ request: Request, context: ServerContext) -> Response {
        Response(status: .ok, headers: Self.json, body: .init(byteBuffer: ByteBuffer(staticString: #"{"status":"ok"}"#)))
    }

    /// `HEAD` of a probe (load balancers send it): the `GET` answer's status and headers, its `Content-Length`
    /// included, and no body.
    static func head(of get: @escaping @Sendable (Request, ServerContext) throws -> Response) -> @Sendable (Request, ServerContext) throws -> Response
    {
        { request, context in
            let full: Response
            do { full = try get(request, context) } catch {
                full = try ErrorMiddleware.apiError(for: error, request: request, context: context).response(from: request, context: context)
            }
            var headers = full.headers
            if let length = full.body.contentLength { headers[.contentLength] = String(length) }
            return Response(status: full.status, headers: headers, body: ResponseBody())
        }
    }

    func readyz(_ request: Request, context: ServerContext) throws -> Response {
        guard let info = engine.index?.info else { throw RegionRefreshError.notReady }
        let state = reloader.current
        let builtAt = state.builtAt ?? info.builtAt
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.key("status")
        w.string("ready")
        w.key("locations")
        w.int(info.locationCount)
        w.key("networks")
        w.int(info.networkCount)
        w.key("built_at")
        w.string(ISO8601DateFormatter().string(from: builtAt))
        w.key("index_age_seconds")
        w.number((clock.now().timeIntervalSince(builtAt) * 10).rounded() / 10)
        // The store's version the index serves: PostGIS's announced version, a SQLite file's change version.
        w.key("store_version")
        if let v = state.indexVersion ?? state.trackedVersion { w.int(Int(v)) } else { w.null() }
        // Ready even while the store is down: the last index keeps serving, and this says since when it is alone.
        w.key("store")
        w.string(state.unreachableSince == nil ? "reachable" : "unreachable")
        if let since = state.unreachableSince {
            w.key("store_unreachable_since")
            w.string(ISO8601DateFormatter().string(from: since))
        }
        w.endObject()
        return Response(status: .ok, headers: Self.json, body: .init(byteBuffer: w.buffer))
    }

    /// Candidates a selection may rank on the I/O thread (a few hundred microseconds at most); one that needs more is
    /// done again, in full, on the server's selection thread (`ServerExecutors.selections`). Ordinary requests rank 23.
    static let inlineCandidateBudget = 256
    /// Locations a selection may read on the I/O thread, for the same reason: ordinary requests read hundreds (the
    /// most seen over 3,000 random requests on 100,000 clustered locations: 3,769, `EngineConfiguration.visitBudget`).
    static let inlineVisitBudget = 4_096

    func regionRefresh(_ request: Request, context: ServerContext) async throws -> Response {
        let body = try await bodies.json(request)
        let decoded = try body.withUnsafeReadableBytes { bytes throws(RegionRefreshError) in try RegionRefreshRequest.decode(jsonBytes: bytes) }
        let parameters = try decoded.validated()
        let now = clock.now()
        var selection = try engine.select(
            parameters, now: now, candidateBudget: Self.inlineCandidateBudget, visitBudget: Self.inlineVisitBudget)
        if selection.selectionLimited {
            // A dense cluster: its full selection takes milliseconds, so it runs on a thread of its own, one at a time,
            // and the I/O threads keep answering probes and other requests meanwhile.
            let engine = engine
            selection = try await executors.selections.run { try engine.select(parameters, now: now) }
        }
        if !selection.unknownNetworks.isEmpty { metrics.unknownCardNetworks(selection.unknownNetworks.count) }
        if context.logger.logLevel <= .debug {
            // A 5-character geohash is a ~5 km cell: enough to debug locality, too coarse to track a person.
            let cell = Geohash(latitude: parameters.center.latitude, longitude: parameters.center.longitude, precision: 5).string
            context.logger.debug("region refresh", metadata: ["cell": .string(cell), "regions": .stringConvertible(selection.regionCount)])
        }
        var answer = selection.jsonBuffer()
        if !decoded.ignoredFields.isEmpty { Self.append(ignoredFields: decoded.ignoredFields, to: &answer) }
        return Response(status: .ok, headers: Self.json, body: .init(byteBuffer: answer))
    }

    /// `"ignored_fields": [...]` as the answer's last member: the selection writes the rest, its closing brace last.
    static func append(ignoredFields: [String], to answer: inout ByteBuffer) {
        guard answer.readableBytes > 0, answer.getInteger(at: answer.writerIndex - 1, as: UInt8.self) == UInt8(ascii: "}") else { return }
        answer.moveWriterIndex(to: answer.writerIndex - 1)
        var w = JSONWriter(capacity: 32 + ignoredFields.reduce(0) { $0 + $1.utf8.count + 3 })
        w.beginArray()
        for name in ignoredFields { w.string(String(name.prefix(100))) }
        w.endArray()
        answer.writeString(",\"ignored_fields\":")
        var list = w.buffer
        answer.writeBuffer(&list)
        answer.writeString("}")
    }

    /// `GET /v1/networks?limit=N&cursor=ID&q=TEXT`: a page of networks in id order (see `NetworkCatalog`).
    func networks(_ request: Request, context: ServerContext) throws -> Response {
        let query = request.uri.queryParameters
        for (name, _) in query where !["limit", "cursor", "q"].contains(name) {
            throw APIError.badRequest("invalid_parameter", "unknown query parameter '\(name.prefix(64))'", field: String(name.prefix(64)))
        }
        var page = NetworkCatalog.Page()
        if let text = query["limit"] {
            guard let value = Int(text), (1...NetworkCatalog.Page.maxLimit).contains(value) else {
                throw APIError.badRequest(
                    "invalid_parameter", "'limit' must be an integer in 1...\(NetworkCatalog.Page.maxLimit)", field: "limit")
            }
            page.limit = value
        }
        for (name, limit) in [("cursor", FieldLimits.networkId), ("q", FieldLimits.networkName)] {
            guard let text = query[Substring(name)] else { continue }
            guard !text.isEmpty, !FieldLimits.exceeds(text, limit), !text.unicodeScalars.contains(where: AdminText.isControl) else {
                throw APIError.badRequest(
                    "invalid_parameter", "'\(name)' must be 1 to \(limit) characters without control characters", field: name)
            }
            if name == "cursor" { page.cursor = String(text) } else { page.search = String(text) }
        }
        guard let body = catalog.page(page) else { throw RegionRefreshError.notReady }
        return Response(status: .ok, headers: Self.json, body: .init(byteBuffer: body))
    }

    func metricsText(_ request: Request, context: ServerContext) -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: metrics.prometheusText())))
    }

    func openAPIDocument(_ request: Request, context: ServerContext) -> Response {
        Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: openAPI))
    }
}
