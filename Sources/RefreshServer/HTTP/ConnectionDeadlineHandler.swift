import HTTPTypes
import LocationStore
import NIOCore
import NIOHTTPTypes

/// Enforces `ConnectionLimits` on one connection and makes shutdown honest about keep-alive. What to do is decided by
/// `ConnectionStateMachine`; this handler tells it what it sees and carries out its actions (timers, writes, closes).
///
/// It sits after HTTP decoding, so it sees request heads, body parts and ends, and the responses going out:
/// - a deadline for the first head (from accepting the connection), for each body (from its head), and for an idle
///   keep-alive connection (from the end of a response to the next head). No deadline runs while the server computes
///   a response: that time is the server's, not the client's;
/// - a head that does not arrive in time is answered 408 and the connection closed; a body that does not is failed
///   with `ClientTimeout`, which the route's body reader throws and the error middleware answers 408; an idle
///   connection is closed without a word;
/// - the long upload deadline applies only to an import that carries a key that may import: anyone else's body has the normal
///   deadline, so that unauthenticated slow uploads cannot hold connections for the upload's 15 minutes;
/// - a response that starts before its request's body has arrived (a 401, 404 or 413 decided on the head) closes the
///   connection after it ends, so that the rest of that body is never waited for;
/// - an upload must also keep arriving at `uploadMinBytesPerSecond`, measured over each `uploadRateWindow`: a trickle
///   (one byte every two seconds) is cut as a late body is, rather than holding its connection for the upload deadline;
/// - one peer address holds at most its share of connections (`PeerConnections`): past it, or past its share of
///   connections still waiting for their first head, a new connection is closed as it is accepted;
/// - a keep-alive connection between requests is on the server's `ConnectionRoster`, which closes the one idle longest
///   when a new connection needs its place, so that a server full of idle keep-alive clients still accepts health
///   checks (a new connection is not: its head may be on its way; the head deadline and the per-address caps bound it);
/// - once the server begins to shut down (`ChannelShouldQuiesceEvent`) every response carries `Connection: close`, so
///   that a keep-alive client does not send another request into a closing socket, and whatever is still open when
///   the shutdown deadline passes is closed, so that a client holding half a body cannot keep the process alive.
final class ConnectionDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart
    typealias Phase = ConnectionStateMachine.Phase

    private let metrics: ServerMetrics
    private let adminKeys: AdminKeyRing?
    private let peers: PeerConnections?
    private let roster: ConnectionRoster?
    private var machine: ConnectionStateMachine
    private var context: ChannelHandlerContext?
    /// The peer's key while it is counted in `peers`.
    private var counted: ClientKey?
    /// The timers the machine asked for.
    private var deadline: Scheduled<Void>?
    private var rateCheck: Scheduled<Void>?
    private var shutdownDeadline: Scheduled<Void>?

    init(
        limits: ConnectionLimits, metrics: ServerMetrics, adminKeys: AdminKeyRing?, peers: PeerConnections? = nil, roster: ConnectionRoster? = nil
    ) {
        machine = ConnectionStateMachine(limits: limits)
        self.metrics = metrics
        self.adminKeys = adminKeys
        self.peers = peers
        self.roster = roster
    }

    func handlerAdded(context: ChannelHandlerContext) {
        metrics.connectionOpened()
        self.context = context
        if let evict = roster?.opened() { evict() }
        if let peers {
            let key = ClientKey(context.channel.remoteAddress)
            if !peers.isExempt(key) {
                guard peers.admit(key) else {
                    metrics.connectionRefusedForAddress()
                    context.close(promise: nil)
                    return
                }
                counted = key
            }
        }
        // The HTTP/1 rules need the request's version, which only the parts before Hummingbird's codec carry.
        try? HTTP1ConformanceHandler.insert(into: context.pipeline.syncOperations)
        handle(.added(active: context.channel.isActive), context: context)
    }

    func channelActive(context: ChannelHandlerContext) {
        handle(.becameActive, context: context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let counted { peers?.closed(counted, awaitingHead: machine.awaitingFirstHead) }
        counted = nil
        roster?.closed(ObjectIdentifier(self))
        self.context = nil
        for timer in [deadline, rateCheck, shutdownDeadline] { timer?.cancel() }
        (deadline, rateCheck, shutdownDeadline) = (nil, nil, nil)
        metrics.connectionClosed()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            let isUpload =
                head.method == .post && (head.path ?? "").hasPrefix(RouteTable.createImport.path)
                && BearerToken.token(in: head.headerFields[.authorization]).flatMap { adminKeys?.principal(forToken: $0) }.map { $0.role >= .import }
                    == true
            handle(.head(isUpload: isUpload), context: context)
        case .body(let chunk): handle(.bodyChunk(bytes: chunk.readableBytes), context: context)
        case .end: handle(.requestEnded, context: context)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            if machine.handle(.responseHead(final: head.status.code >= 200)).contains(.sayClose) {
                head.headerFields[.connection] = "close"
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end:
            handle(.responseEnded, context: context, end: (data, promise))
        default:
            context.write(data, promise: promise)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent { handle(.quiesce, context: context) }
        context.fireUserInboundEventTriggered(event)
    }

    // MARK: Carrying out

    /// Gives `event` to the machine and carries out its actions; `end` is the response end being written, if any.
    private func handle(
        _ event: ConnectionStateMachine.Event, context: ChannelHandlerContext, end: (NIOAny, EventLoopPromise<Void>?)? = nil
    ) {
        for action in machine.handle(event) {
            switch action {
            case .arm(let phase, let timeout):
                deadline?.cancel()
                deadline = schedule(.deadlinePassed(phase), in: timeout, context: context)
            case .disarm:
                deadline?.cancel()
                deadline = nil
            case .checkRate(let window):
                rateCheck?.cancel()
                rateCheck = schedule(.rateCheckDue, in: window, context: context)
            case .stopRateCheck:
                rateCheck?.cancel()
                rateCheck = nil
            case .armShutdown(let timeout):
                shutdownDeadline = schedule(.shutdownDeadlinePassed, in: timeout, context: context)
            case .firstHeadArrived: if let counted { peers?.headArrived(counted) }
            case .markIdle: markIdle(context: context)
            case .markBusy: roster?.becameBusy(ObjectIdentifier(self))
            case .countTimeout(let phase): metrics.connectionTimedOut(phase)
            case .countEviction: metrics.connectionEvicted()
            case .answerTimeout: answerTimeout(context: context)
            case .failBody(let phase): context.fireErrorCaught(ClientTimeout(phase: phase))
            case .sayClose: break
            case .writeEnd: if let end { context.write(end.0, promise: end.1) }
            case .flushAndClose:
                if let end { context.writeAndFlush(end.0, promise: end.1) }
                context.close(promise: nil)
            case .close: context.close(promise: nil)
            }
        }
    }

    /// A timer on the connection's loop that gives `event` to the machine when it fires.
    private func schedule(_ event: ConnectionStateMachine.Event, in timeout: Duration, context: ChannelHandlerContext) -> Scheduled<Void> {
        context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(timeout)) { [self] in
            handle(event, context: context)
        }
    }

    /// On the roster: it may close this connection to make room for a new one, on this connection's loop, unless a
    /// request began meanwhile.
    private func markIdle(context: ChannelHandlerContext) {
        guard let roster else { return }
        let loop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: loop)
        roster.becameIdle(ObjectIdentifier(self)) {
            loop.execute {
                guard let context = handler.value.context else { return }
                handler.value.handle(.evictionAsked, context: context)
            }
        }
    }

    /// 408 with the API's error shape, then close. Only used before a request head, when no route owns the connection.
    private func answerTimeout(context: ChannelHandlerContext) {
        let error = ClientTimeout(phase: .head)
        var body = context.channel.allocator.buffer(capacity: 96)
        body.writeString(#"{"error":"request_timeout","message":"\#(error.message)"}"#)
        let head = HTTPResponse(
            status: .requestTimeout,
            headerFields: [
                .contentType: "application/json", .contentLength: String(body.readableBytes), .connection: "close",
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// A client took longer than its limit to send a request; answered 408.
struct ClientTimeout: Error, Sendable {
    var phase: ConnectionDeadlineHandler.Phase

    var message: String {
        switch phase {
        case .head: "the request head did not arrive in time"
        case .rate: "the upload arrived too slowly (see --upload-min-bytes-per-second)"
        default: "the request body did not arrive in time"
        }
    }
}
