import Foundation
import Geo
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocationStore
import Logging
import NIOCore
import SQLiteStore
import Synchronization
import TestSupport
import Testing

@testable import RefreshServer

/// A store in a temporary directory with a few networks around San Francisco.
struct TestStore {
    let directory: URL
    var path: String { directory.appendingPathComponent("store.sqlite").path }

    static let costcoSF = (lat: 37.7700, lon: -122.4130)

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try SQLiteLocationStore.create(path: path)
        try store.upsertNetwork(Network(id: "costco", name: "Costco", category: "wholesale"))
        try store.upsertNetwork(Network(id: "sfpl", name: "San Francisco Public Library", category: "library"))
        try store.upsertNetwork(Network(id: "bluebottle", name: "Blue Bottle", category: "coffee"))
        var locations: [Location] = [
            Location(
                networkId: "costco", externalId: "sf", name: "Costco SF", address: "450 10th St",
                coordinate: try Coordinate(latitude: Self.costcoSF.lat, longitude: Self.costcoSF.lon))
        ]
        for i in 0..<30 {
            let lat = 37.70 + Double(i % 6) * 0.02
            let lon = -122.50 + Double(i / 6) * 0.03
            locations.append(
                Location(
                    networkId: i % 2 == 0 ? "sfpl" : "bluebottle", externalId: "b\(i)", name: "Branch \(i)",
                    address: "\(i) Main St", coordinate: try Coordinate(latitude: lat, longitude: lon)))
        }
        _ = try store.upsert(locations)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// Log lines captured from the server, for the privacy scan.
final class LogCapture: Sendable {
    let lines = Mutex<[String]>([])

    var logger: Logger {
        var logger = Logger(label: "oncue.test") { [self] label in CapturingHandler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    struct CapturingHandler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var all = metadata
            for (key, value) in event.metadata ?? [:] { all[key] = value }
            let line = "\(event.level) \(event.message) \(all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))"
            capture.lines.withLock { $0.append(line) }
        }
    }
}

/// A response with the body as bytes, checked against the OpenAPI document on arrival.
struct Reply {
    let status: Int
    let headers: HTTPFields
    let body: [UInt8]

    var json: JSONValue? { try? JSONValue.parse(body) }
    /// Pass as `route` for a request that matches no documented operation.
    static let unroutable = "(no route)"
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// What a test sends its requests through: the application's router in process (`RouterClient`), or a real server on a
/// loopback port (`LiveClient`).
protocol ServerClient: Sendable {
    func exchange(_ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields, body: ByteBuffer?) async throws -> (HTTPResponse, ByteBuffer)
    /// The server's port; nil in process.
    var port: Int? { get }
}

/// HummingbirdTesting's client of the router (or any of its clients, for a test that runs the framework itself).
struct RouterClient: ServerClient {
    let base: any TestClientProtocol

    func exchange(_ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields, body: ByteBuffer?) async throws -> (HTTPResponse, ByteBuffer) {
        let response = try await base.executeRequest(uri: uri, method: method, headers: headers, body: body)
        return (response.head, response.body)
    }

    var port: Int? { base.port }
}

/// A real server on a loopback port, reached through HummingbirdTesting's `TestClient` with minutes for each answer. The
/// live framework's own client gives a request 20 s, fixed: at the start of the whole suite, hundreds of tests queue on
/// the two threads of the cooperative pool, and a handler waited longer than that for its turn (CI, 2026-11-28: three
/// tests failed so; in-process servers then took 60–70 s from their start to their first service running).
struct LiveClient: ServerClient {
    let client: TestClient
    let port: Int?

    /// Connects to `port`; `shutdown()` when done.
    init(port: Int) {
        client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(180)))
        client.connect()
        self.port = port
    }

    func exchange(_ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields, body: ByteBuffer?) async throws -> (HTTPResponse, ByteBuffer) {
        var fields = headers
        fields[.connection] = "keep-alive"
        let response = try await client.execute(TestClient.Request(uri, method: method, authority: "127.0.0.1", headers: fields, body: body))
        return (response.head, response.body ?? ByteBuffer())
    }

    func shutdown() async { try? await client.shutdown() }

    /// Runs `body` with a `LiveClient` of the live server `framework` (HummingbirdTesting's client) reaches.
    static func with<T: Sendable>(_ framework: any TestClientProtocol, _ body: (LiveClient) async throws -> T) async throws -> T {
        let live = LiveClient(port: try #require(framework.port, "not a live server"))
        do {
            let result = try await body(live)
            await live.shutdown()
            return result
        } catch {
            await live.shutdown()
            throw error
        }
    }
}

extension TestClientProtocol {
    /// `ServerClient.send` through HummingbirdTesting's client.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, route: String? = nil, headers: HTTPFields = [:], body: String? = nil,
        json: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Reply {
        try await RouterClient(base: self).send(
            method, uri, route: route, headers: headers, body: body, json: json, sourceLocation: sourceLocation)
    }
}

extension ServerClient {
    /// Sends a request and records a test issue if the answer is not what `openapi.yaml` documents
    /// for `route` (the template, e.g. `/admin/imports/{id}`).
    func send(
        _ method: HTTPRequest.Method, _ uri: String, route: String? = nil, headers: HTTPFields = [:], body: String? = nil,
        json: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Reply {
        var fields = headers
        if body != nil, json, fields[.contentType] == nil { fields[.contentType] = "application/json" }
        let (head, bytes) = try await exchange(method, uri, headers: fields, body: body.map { ByteBuffer(string: $0) })
        let response = (status: head.status, headers: head.headerFields)
        let reply = Reply(status: Int(response.status.code), headers: response.headers, body: Array(bytes.readableBytesView))
        let problems: [String]
        if route == Reply.unroutable {
            // 404 for unknown paths and 405 for unsupported methods have no operation; they must still be the error shape.
            var found: [String] = []
            if let json = reply.json, let schema = OpenAPIContract.shared.resolve("#/components/schemas/Error") {
                OpenAPIContract.shared.validate(json, schema, at: "$", &found)
            } else {
                found = ["not JSON: \(reply.text)"]
            }
            problems = found
        } else {
            let template = route ?? String(uri.split(separator: "?").first ?? "")
            problems = OpenAPIContract.shared.check(
                method: method.rawValue, path: template, status: reply.status,
                contentType: response.headers[.contentType], body: Data(reply.body))
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "; "))", sourceLocation: sourceLocation)
        return reply
    }
}

let adminToken = "test-admin-token-0123456789"

extension ConnectionLimits {
    /// The live test client connects before the index has loaded and may send its first request after a wait no phone
    /// would make (a loaded CI machine once needed more than 10 s), so in-process servers give it minutes; the limits
    /// themselves are tested on the real binary (SlowClientTests).
    static var forTests: ConnectionLimits {
        var limits = ConnectionLimits()
        limits.headTimeout = .seconds(600)
        limits.idleTimeout = .seconds(600)
        return limits
    }
}

/// Runs `body` against the server, with the index loaded unless told otherwise.
///
/// By default requests go to the application's router in process (HummingbirdTesting's `.router`): the routes, their
/// middleware and the services (the index reloader) are the server's, but no socket is opened, so nothing in the test
/// waits on the network or on a client's timeout. Tests of what only a connection shows (the connection handler's
/// limits, the peer's address, HTTP/1.1 framing) pass `over: .live` for a real server on a loopback port.
func withServer(
    store: TestStore? = nil, logs: LogCapture? = nil, waitUntilReady: Bool = true, executors: ServerExecutors = ServerExecutors(),
    clock: ServerClock = .system, over testing: TestingSetup = .router, configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: @Sendable (any ServerClient, ServerBuilder.Built) async throws -> Void
) async throws {
    let owned = try store ?? TestStore()
    defer { if store == nil { owned.remove() } }
    var configuration = ServerConfiguration(database: owned.path, host: "127.0.0.1", port: 0, adminToken: adminToken)
    configuration.connections = .forTests
    configure(&configuration)
    var logger = logs?.logger ?? Logger(label: "oncue.test")
    if logs == nil { logger.logLevel = .critical }
    let built = try await ServerBuilder.build(configuration: configuration, executors: executors, clock: clock, logger: logger)
    try await built.application.test(testing) { client in
        if waitUntilReady { try await waitForReload(built, count: 1) }
        if client.port == nil {
            try await body(RouterClient(base: client), built)
        } else {
            try await LiveClient.with(client) { try await body($0, built) }
        }
    }
}

/// Waits (bounded) until the reloader has installed `count` indexes.
///
/// Generously bounded: every server in this test process queues its rebuilds on the one rebuild thread,
/// behind other tests' imports, and a loaded 2-core CI machine once needed more than 10 s.
func waitForReload(_ built: ServerBuilder.Built, count: Int) async throws {
    let loaded = try await eventually { built.reloader.completedReloads >= count }
    try #require(loaded, "the index did not load within 60 s")
}

extension HTTPFields {
    static var admin: HTTPFields { [.authorization: "Bearer \(adminToken)"] }
}

extension TestClient {
    /// A POST with a Host header: HTTP/1.1 requires one (the server answers 400 without it), and TestClient's own
    /// helpers send none.
    func postWithHost(_ uri: String, headers: HTTPFields = [:], body: ByteBuffer) async throws -> TestClient.Response {
        try await execute(TestClient.Request(uri, method: .post, authority: "127.0.0.1", headers: headers, body: body))
    }
}
