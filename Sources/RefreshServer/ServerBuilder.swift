import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import RegionRefresh
import ServiceLifecycle
import UnixSignals

/// Assembles the HTTP application: middleware order, route groups and the index reloader.
package enum ServerBuilder {
    /// The application plus the pieces tests and the CLI look at while it runs.
    package struct Built: Sendable {
        package let application: Application<RouterResponder<ServerContext>>
        package let engine: RegionRefreshEngine
        package let reloader: IndexReloader
        package let keys: AdminKeyRing
        package let metrics: ServerMetrics
        /// The threads of this server's blocking work; they end when the server is released.
        package let executors: ServerExecutors
        let limits: ConnectionLimits
        /// The store's one admin writer (imports, edits, the audit log's writes), and the audit log's recorder.
        let importGate: ImportGate
        let audit: AuditRecorder
    }

    /// Builds the server for `configuration`. The index is loaded by a service of the application
    /// once it runs, so the port answers `/healthz` (and `/readyz` with 503) while it loads. The server's blocking work
    /// runs on `executors` (threads of its own unless given), and it reads the time from `clock` only.
    package static func build(
        configuration: ServerConfiguration, engine: RegionRefreshEngine? = nil, executors: ServerExecutors = ServerExecutors(),
        clock: ServerClock = .system, logger: Logger, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> Built {
        let engine = engine ?? RegionRefreshEngine(configuration: configuration.engineConfiguration)
        let metrics = ServerMetrics(clock: clock)
        ImportUpload.removeOrphans(in: configuration.temporaryDirectory, logger: logger)
        let catalog = NetworkCatalog()
        let access = try StoreAccess(
            database: configuration.database, readDatabase: configuration.readDatabase, executors: executors, logger: logger)
        let reloader = IndexReloader(
            engine: engine, access: access, pollSeconds: configuration.storePollSeconds, metrics: metrics,
            catalog: catalog, clock: clock, logger: logger)
        let bodies = RequestBodyReader(maxBytes: configuration.maxBodyBytes)
        let publicRoutes = PublicRoutes(
            engine: engine, catalog: catalog, metrics: metrics, bodies: bodies, openAPI: try OpenAPIDocument.load(),
            reloader: reloader, executors: executors, clock: clock)
        let keys = AdminKeyRing(configuration: configuration, access: access, clock: clock, logger: logger)
        let importRunning = ImportGate()
        let audit = AuditRecorder(
            access: access, importRunning: importRunning, clock: clock, directory: configuration.temporaryDirectory,
            retentionDays: configuration.auditRetentionDays, logger: logger)
        let storeRoutes = AdminStoreRoutes(access: access, bodies: bodies, reloader: reloader, importRunning: importRunning)
        let importRoute = ImportRoute(
            access: access,
            upload: ImportUpload(directory: configuration.temporaryDirectory, maxBytes: configuration.maxImportBytes),
            reloader: reloader, metrics: metrics, running: importRunning,
            geocoder: .init(geocoders: configuration.geocoders, requestsPerSecond: configuration.geocoderRequestsPerSecond),
            jobs: ImportJobs(clock: clock), audit: audit, keys: keys, clock: clock)
        let locationsRoute = LocationsRoute(engine: engine)
        let consoleRoutes = ConsoleRoutes(tiles: configuration.consoleTiles)

        let router = Router(context: ServerContext.self)
        // Middleware wraps routes as they are added, so all of it goes on before the first route.
        router.add(middleware: RequestLogMiddleware(metrics: metrics, clock: clock))
        router.add(middleware: ErrorMiddleware())
        publicRoutes.registerProbes(on: router)

        let rateLimit = rateLimitMiddleware(configuration, metrics: metrics, clock: clock)
        let api = try await apiGroup(of: router, configuration: configuration, rateLimit: rateLimit, clock: clock)
        api.on(RouterPath(RouteTable.regionRefresh.routerPath), method: .post, use: publicRoutes.regionRefresh)
        api.on(RouterPath(RouteTable.networks.routerPath), method: .get, use: publicRoutes.networks)
        api.on(RouterPath(RouteTable.locations.routerPath), method: .get, use: locationsRoute.locations)

        // The document and the console's files: never behind the app's token (the console asks for it in its page).
        let limited = router.group()
        if let rateLimit { limited.add(middleware: rateLimit) }
        limited.on(RouterPath(RouteTable.openapi.routerPath), method: .get, use: publicRoutes.openAPIDocument)
        // The router takes `/console` and `/console/` alike; the handler sends the first to the second.
        limited.on(RouterPath(RouteTable.console.routerPath), method: .get, use: consoleRoutes.index)
        limited.on(RouterPath(RouteTable.consoleFile.routerPath), method: .get, use: consoleRoutes.file)

        let keyRoutes = AdminKeyRoutes(access: access, bodies: bodies, keys: keys, audit: audit)
        let admin = limited.group().add(middleware: AdminAuthMiddleware(keys: keys)).add(middleware: AuditMiddleware(recorder: audit))
        importRoute.register(on: admin)
        storeRoutes.register(on: admin)
        keyRoutes.register(on: admin)
        AdminLocationRoutes(access: access, bodies: bodies, reloader: reloader, importRunning: importRunning, clock: clock).register(on: admin)

        let handlers = connectionHandlers(configuration, metrics, keys)
        var application = Application(
            router: router, server: .http1(configuration: .init(additionalChannelHandlers: handlers())),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "oncue",
                availableConnectionsDelegate: .maximum(configuration.connections.maxConnections, logger: logger)),
            onServerRunning: { channel in
                await acceptOneAtATime(channel)
                await onServerRunning(channel.localAddress?.port ?? 0)
            },
            logger: logger
        )
        application.addServices(access.pool, reloader, keys, audit)  // stopped in reverse: the pool after the audit log
        return Built(
            application: application, engine: engine, reloader: reloader, keys: keys, metrics: metrics, executors: executors,
            limits: configuration.connections,
            importGate: importRunning, audit: audit)
    }
}

extension ServerBuilder {
    /// What makes each connection's limit handler (Hummingbird calls it once per connection); the per-address counts
    /// and the roster of idle connections are made here once, shared by every connection.
    static func connectionHandlers(
        _ configuration: ServerConfiguration, _ metrics: ServerMetrics, _ keys: AdminKeyRing
    ) -> @Sendable () -> [any RemovableChannelHandler] {
        let limits = configuration.connections
        let peers = PeerConnections(limits, exempt: configuration.trustedProxies)
        let roster = ConnectionRoster(maxConnections: limits.maxConnections)
        return { [ConnectionDeadlineHandler(limits: limits, metrics: metrics, adminKeys: keys, peers: peers, roster: roster)] }
    }

    /// Hummingbird checks `--max-connections` before each read of the listening socket, and one read accepts up to
    /// `maxMessagesPerRead` connections (NIO's default, 4): under load, with several waiting in the backlog, a server
    /// holding 1 of 4 accepted four more. One connection per read keeps the limit exact.
    static func acceptOneAtATime(_ listener: any Channel) async {
        try? await listener.setOption(ChannelOptions.maxMessagesPerRead, value: 1)
    }

    /// The group of the API's routes: with --client-jwt the token is checked first, so that the rate limit counts by
    /// the token's subject.
    static func apiGroup(
        of router: Router<ServerContext>, configuration: ServerConfiguration, rateLimit: RateLimitMiddleware?, clock: ServerClock
    ) async throws -> RouterGroup<ServerContext> {
        let api = router.group()
        if let key = configuration.clientJWTKey {
            let verifier = try await ClientTokenVerifier.make(
                key: key, issuer: configuration.clientJWTIssuer, audience: configuration.clientJWTAudience,
                maxLifetime: configuration.clientJWTMaxLifetime, now: clock.now)
            api.add(middleware: ClientTokenMiddleware(verifier: verifier, rateLimit: rateLimit))
        }
        if let rateLimit { api.add(middleware: rateLimit) }
        return api
    }

    /// The per-client rate limit of every route but the probes, when the configuration has one.
    static func rateLimitMiddleware(_ configuration: ServerConfiguration, metrics: ServerMetrics, clock: ServerClock) -> RateLimitMiddleware? {
        guard let limit = configuration.rateLimit else { return nil }
        return RateLimitMiddleware(
            limiter: TokenBucketLimiter(requestsPerSecond: limit.requestsPerSecond, burst: limit.burst, clock: { clock.uptimeNanoseconds }),
            clients: ClientResolver(header: configuration.clientIPHeader.flatMap { HTTPField.Name($0) }, trusted: configuration.trustedProxies),
            metrics: metrics)
    }
}

extension ServerBuilder.Built {
    /// Serves until SIGTERM or SIGINT, then stops accepting, lets requests in flight finish and returns.
    /// Each connection closes itself at the shutdown deadline (`ConnectionDeadlineHandler`); the group's own limit,
    /// a little later, cancels whatever still runs (a route stuck on the store), so the process always exits.
    package func runUntilSignalled() async throws {
        var configuration = ServiceGroupConfiguration(
            services: [application], gracefulShutdownSignals: [.sigterm, .sigint],
            logger: application.logger)
        configuration.maximumGracefulShutdownDuration = limits.shutdownTimeout + .seconds(5)
        configuration.maximumCancellationDuration = .seconds(5)
        try await ServiceGroup(configuration: configuration).run()
    }
}

extension RouterGroup<ServerContext> {
    /// Registers an admin route at its table entry, behind the role the table gives it.
    func on(_ route: RouteSpec, use handler: @escaping @Sendable (Request, ServerContext) async throws -> Response) {
        guard let role = route.role else { preconditionFailure("admin route \(route.path) has no role in RouteTable") }
        on(RouterPath(route.routerPath), method: route.method, use: RoleCheck.requiring(role, handler))
    }
}
