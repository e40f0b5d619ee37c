import HTTPTypes
import LocationStore
import NIOCore
import NIOHTTPTypes

/// Enforces `ConnectionLimits` on one connection and makes shutdown honest about keep-alive.
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

    /// What a connection was waiting for when its deadline passed; the label of the metric.
    enum Phase: String, Sendable, CaseIterable {
        /// `rate`: an upload arrived slower than its floor.
        case head, body, rate, idle, shutdown
    }

    private let limits: ConnectionLimits
    private let metrics: ServerMetrics
    private let adminKeys: AdminKeyRing?
    private let peers: PeerConnections?
    private let roster: ConnectionRoster?
    private var context: ChannelHandlerContext?
    /// On the roster as idle: nothing in progress, so it may be closed to make room.
    private var isIdle = false
    /// Bytes of an upload's body since the rate was last checked, and the check's timer.
    private var windowBytes = 0
    private var rateCheck: Scheduled<Void>?
    /// The peer's key while it is counted in `peers`, and whether its first head is still to come.
    private var counted: ClientKey?
    private var awaitingFirstHead = true
    private var deadline: Scheduled<Void>?
    private var shutdownDeadline: Scheduled<Void>?
    /// Requests whose head has arrived and whose response has not ended (more than one when pipelined).
    private var unanswered = 0
    private var readingBody = false
    /// Every later response says `Connection: close`; after the last one the connection closes.
    private var closing = false
    /// The response being written began before its request's body ended: the connection closes after it.
    private var answeredEarly = false

    init(
        limits: ConnectionLimits, metrics: ServerMetrics, adminKeys: AdminKeyRing?, peers: PeerConnections? = nil, roster: ConnectionRoster? = nil
    ) {
        self.limits = limits
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
        if context.channel.isActive { arm(.head, after: limits.headTimeout, context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if deadline == nil { arm(.head, after: limits.headTimeout, context: context) }
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let counted { peers?.closed(counted, awaitingHead: awaitingFirstHead) }
        counted = nil
        roster?.closed(ObjectIdentifier(self))
        isIdle = false
        self.context = nil
        disarm()
        rateCheck?.cancel()
        rateCheck = nil
        shutdownDeadline?.cancel()
        shutdownDeadline = nil
        metrics.connectionClosed()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if awaitingFirstHead {
                awaitingFirstHead = false
                if let counted { peers?.headArrived(counted) }
            }
            unanswered += 1
            readingBody = true
            markBusy()
            let isUpload =
                head.method == .post && (head.path ?? "").hasPrefix(RouteTable.createImport.path)
                && BearerToken.token(in: head.headerFields[.authorization]).flatMap { adminKeys?.principal(forToken: $0) }.map { $0.role >= .import }
                    == true
            arm(.body, after: limits.bodyTimeout(isUpload: isUpload), context: context)
            if isUpload, limits.uploadMinBytesPerSecond > 0 { armRateCheck(context: context) }
        case .body(let chunk):
            windowBytes += chunk.readableBytes
        case .end:
            readingBody = false
            disarm()
            rateCheck?.cancel()
            rateCheck = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        // An interim response (100 Continue) asks for the body; it is not an answer.
        case .head(var head) where closing || (readingBody && head.status.code >= 200):
            answeredEarly = readingBody
            head.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where answeredEarly:
            disarm()
            context.writeAndFlush(data, promise: promise)
            context.close(promise: nil)
        case .end:
            unanswered = max(0, unanswered - 1)
            guard unanswered == 0, !readingBody else {
                context.write(data, promise: promise)
                return
            }
            if closing {
                context.writeAndFlush(data, promise: promise)
                context.close(promise: nil)
            } else {
                context.write(data, promise: promise)
                arm(.idle, after: limits.idleTimeout, context: context)
                markIdle(context: context)
            }
        default:
            context.write(data, promise: promise)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, !closing {
            closing = true
            let loop = context.eventLoop.assumeIsolated()
            shutdownDeadline = loop.scheduleTask(in: TimeAmount(limits.shutdownTimeout)) { [self] in
                metrics.connectionTimedOut(.shutdown)
                context.close(promise: nil)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    // MARK: Deadlines

    private func arm(_ phase: Phase, after timeout: Duration, context: ChannelHandlerContext) {
        disarm()
        let loop = context.eventLoop.assumeIsolated()
        deadline = loop.scheduleTask(in: TimeAmount(timeout)) { [self] in
            deadline = nil
            expire(phase, context: context)
        }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }

    private func expire(_ phase: Phase, context: ChannelHandlerContext) {
        metrics.connectionTimedOut(phase)
        switch phase {
        case .head:
            answerTimeout(context: context)
        case .body, .rate:
            // The route is reading (or about to read) the body: fail that read, so that the route's own error path
            // answers 408 and frees what it holds (an upload's staged file). The close after the answer is ours.
            closing = true
            readingBody = false
            rateCheck?.cancel()
            rateCheck = nil
            context.fireErrorCaught(ClientTimeout(phase: phase))
            // A route that never reads its body must not keep the connection either.
            arm(.shutdown, after: .seconds(2), context: context)
        case .idle, .shutdown:
            context.close(promise: nil)
        }
    }

    /// Every `uploadRateWindow` while an upload's body arrives: fewer bytes than the floor in the window cut it.
    private func armRateCheck(context: ChannelHandlerContext) {
        windowBytes = 0
        let window = limits.uploadRateWindow
        let floor = Int(Double(limits.uploadMinBytesPerSecond) * window.inSeconds)
        rateCheck = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(window)) { [self] in
            rateCheck = nil
            guard readingBody else { return }
            if windowBytes < floor {
                disarm()
                expire(.rate, context: context)
            } else {
                armRateCheck(context: context)
            }
        }
    }

    // MARK: The roster

    /// Nothing is in progress: the roster may close this connection to make room for a new one.
    private func markIdle(context: ChannelHandlerContext) {
        guard let roster, !isIdle, !closing else { return }
        isIdle = true
        let loop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: loop)
        roster.becameIdle(ObjectIdentifier(self)) { loop.execute { handler.value.evictIfIdle() } }
    }

    private func markBusy() {
        guard isIdle else { return }
        isIdle = false
        roster?.becameBusy(ObjectIdentifier(self))
    }

    /// Run on this connection's loop when the roster chose it: closed unless a request began meanwhile.
    private func evictIfIdle() {
        guard isIdle, let context else { return }
        isIdle = false
        metrics.connectionEvicted()
        context.close(promise: nil)
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
