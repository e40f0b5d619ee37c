import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// What HTTP/1 itself requires of a request and a connection, checked where the HTTP version is still known (before the
/// conversion to version-less HTTP types, which also folds a second `Host` into the other headers):
/// - an HTTP/1.1 request with no `Host` or more than one is answered 400 and the connection closed (RFC 9112 §3.2);
/// - `CONNECT` (a tunnel this server never opens) is answered 405 with `Allow` and the connection closed, instead of
///   a 404 head without a length that left the client waiting;
/// - a request that did not ask to keep the connection (HTTP/1.0 without `Connection: keep-alive`, or
///   `Connection: close`) has its connection closed after the response, which says `Connection: close`.
final class HTTP1ConformanceHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Whether each request still unanswered may keep the connection, oldest first (requests can be pipelined).
    private var keepAlive: [Bool] = []
    /// The connection was refused: the rest of what the client sends is dropped.
    private var refused = false

    /// Puts the handler before Hummingbird's HTTP/1 to HTTP-types codec of `pipeline`.
    static func insert(into pipeline: ChannelPipeline.SynchronousOperations) throws {
        let codec = try pipeline.context(handlerType: HTTP1ToHTTPServerCodec.self)
        try pipeline.addHandler(HTTP1ConformanceHandler(), position: .before(codec.handler))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused { return }
        if case .head(let head) = unwrapInboundIn(data) {
            if head.method == .CONNECT {
                refuse(context: context, status: .methodNotAllowed, code: "method_not_allowed", message: "CONNECT is not served here")
                return
            }
            let hosts = head.headers["host"].count
            if head.version == .http1_1 && hosts != 1 {
                let message = hosts == 0 ? "an HTTP/1.1 request needs a Host header" : "a request may have one Host header, it had \(hosts)"
                refuse(context: context, status: .badRequest, code: "bad_request", message: message)
                return
            }
            keepAlive.append(head.isKeepAlive)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where head.status.code >= 200 && keepAlive.first == false:
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end where !keepAlive.isEmpty:
            let keep = keepAlive.removeFirst()
            guard !keep else {
                context.write(data, promise: promise)
                return
            }
            let channel = context.channel
            context.writeAndFlush(data).whenComplete { result in
                promise?.completeWith(result)
                channel.close(promise: nil)
            }
        default:
            context.write(data, promise: promise)
        }
    }

    /// Answers with the API's error shape, closes, and drops the rest of the connection's input.
    private func refuse(context: ChannelHandlerContext, status: HTTPResponseStatus, code: String, message: String) {
        refused = true
        var body = context.channel.allocator.buffer(capacity: 96)
        // NIO's encoder sends no body after a CONNECT's head (as after a HEAD's): the 405 says everything in its head.
        if status != .methodNotAllowed { body.writeString(#"{"error":"\#(code)","message":"\#(message)"}"#) }
        var headers = HTTPHeaders([("content-type", "application/json"), ("content-length", String(body.readableBytes)), ("connection", "close")])
        if status == .methodNotAllowed { headers.add(name: "allow", value: "GET, HEAD, POST, PUT, PATCH, DELETE") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
