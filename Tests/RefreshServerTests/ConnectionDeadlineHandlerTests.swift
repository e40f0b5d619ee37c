import HTTPTypes
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

@testable import RefreshServer

/// The handler that carries the machine's actions out, on NIO's `EmbeddedChannel`: its loop's time moves only when
/// the test moves it (`advanceTime`), so each deadline is checked on both sides of its limit with no socket and no
/// sleep. (The socket suite, `SlowClientTests`, keeps what only a socket shows: hundreds of real slow clients, and a
/// process's exit at its shutdown deadline.)
@Suite("The connection handler on an embedded channel")
struct ConnectionDeadlineHandlerTests {
    /// A connected channel with the handler, its loop and the server's metrics.
    struct Connection {
        let loop = EmbeddedEventLoop()
        let channel: EmbeddedChannel
        let metrics = ServerMetrics(clock: .system)

        init(limits: ConnectionLimits = ConnectionStateMachineTests.limits) throws {
            channel = EmbeddedChannel(loop: loop)
            try channel.pipeline.syncOperations.addHandler(
                ConnectionDeadlineHandler(limits: limits, metrics: metrics, adminKeys: nil))
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        }

        func send(_ part: HTTPRequestPart) throws { try channel.writeInbound(part) }

        func head(_ path: String = "/v1/region-refresh") throws {
            try send(.head(HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1", path: path)))
        }

        /// Writes a whole response; returns its head as it left the handler.
        @discardableResult
        func respond(_ status: HTTPResponse.Status = .ok) throws -> HTTPResponse? {
            try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: status)))
            try channel.writeOutbound(HTTPResponsePart.end(nil))
            guard case .head(let head)? = try channel.readOutbound(as: HTTPResponsePart.self) else { return nil }
            while try channel.readOutbound(as: HTTPResponsePart.self) != nil {}
            return head
        }

        func advance(_ duration: Duration) { loop.advanceTime(by: TimeAmount(duration)) }

        /// The error the handler sent up the pipeline, if any.
        func caught() -> ClientTimeout? {
            do {
                try channel.throwIfErrorCaught()
                return nil
            } catch {
                return error as? ClientTimeout
            }
        }
    }

    @Test func aHeadThatDoesNotArriveIsAnswered408AtItsDeadlineNotBefore() throws {
        let c = try Connection()
        c.advance(.seconds(9))
        #expect(c.channel.isActive)
        c.advance(.seconds(1))
        guard case .head(let head)? = try c.channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("no 408")
            return
        }
        #expect(head.status == .requestTimeout)
        #expect(head.headerFields[.connection] == "close")
        guard case .body(let body)? = try c.channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("no body")
            return
        }
        #expect(String(buffer: body).contains(#""error":"request_timeout""#))
        #expect(!c.channel.isActive)
        #expect(c.metrics.timeouts(.head) == 1)
    }

    @Test func aLateBodyFailsTheRoutesReadAt30sAndTheConnectionClosesAfterIts408() throws {
        let c = try Connection()
        try c.head()
        try c.send(.body(ByteBuffer(string: "{")))
        c.advance(.seconds(29))
        #expect(c.caught() == nil)
        c.advance(.seconds(1))
        #expect(c.caught()?.phase == .body)
        #expect(try c.respond(.requestTimeout)?.headerFields[.connection] == "close")
        #expect(!c.channel.isActive)
        #expect(c.metrics.timeouts(.body) == 1)
    }

    @Test func aRouteThatNeverAnswersItsLateBodyIsClosedTwoSecondsLater() throws {
        let c = try Connection()
        try c.head()
        c.advance(.seconds(30))
        #expect(c.caught()?.phase == .body)
        c.advance(.seconds(1))
        #expect(c.channel.isActive)
        c.advance(.seconds(1))
        #expect(!c.channel.isActive)
    }

    @Test func noDeadlineRunsWhileTheServerComputesAResponse() throws {
        let c = try Connection()
        try c.head()
        try c.send(.end(nil))
        c.advance(.seconds(3_600))
        #expect(c.channel.isActive)
        #expect(c.caught() == nil)
        #expect(try c.respond()?.headerFields[.connection] == nil)
        // Then the idle deadline: closed without a word at 60 s.
        c.advance(.seconds(59))
        #expect(c.channel.isActive)
        c.advance(.seconds(1))
        #expect(!c.channel.isActive)
        #expect(try c.channel.readOutbound(as: HTTPResponsePart.self) == nil)
        #expect(c.metrics.timeouts(.idle) == 1)
    }

    @Test func anAnswerBeforeTheBodyEndedClosesTheConnection() throws {
        let c = try Connection()
        try c.head()
        try c.send(.body(ByteBuffer(string: "{")))
        #expect(try c.respond(.unauthorized)?.headerFields[.connection] == "close")
        #expect(!c.channel.isActive)
    }

    @Test func anUnauthenticatedUploadHasTheNormalBodyDeadline() throws {
        // No key ring: nobody may import, so an upload's head gets the 30 s deadline, not the upload's 900 s.
        let c = try Connection()
        try c.head(RouteTable.createImport.path)
        c.advance(.seconds(30))
        #expect(c.caught()?.phase == .body)
    }

    @Test func atQuiesceAKeepAliveResponseSaysCloseAndWhatStaysOpenIsClosedAtTheShutdownDeadline() throws {
        let c = try Connection()
        try c.head()
        try c.send(.end(nil))
        c.channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        #expect(try c.respond()?.headerFields[.connection] == "close")
        #expect(!c.channel.isActive)

        // A client holding half a body at quiesce is closed when the shutdown deadline passes.
        var limits = ConnectionStateMachineTests.limits
        limits.bodyTimeout = .seconds(600)
        let holding = try Connection(limits: limits)
        try holding.head()
        holding.channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        holding.advance(.seconds(14))
        #expect(holding.channel.isActive)
        holding.advance(.seconds(1))
        #expect(!holding.channel.isActive)
        #expect(holding.metrics.timeouts(.shutdown) == 1)
    }
}
