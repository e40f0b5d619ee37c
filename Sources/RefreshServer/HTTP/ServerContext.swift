import Hummingbird
import NIOCore

/// The per-request context: Hummingbird's core storage plus the connection, kept so that the
/// peer address is formatted only when the rate limiter needs it.
public struct ServerContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The peer's IP address without the port ("127.0.0.1", "::1").
    var peerAddress: String {
        channel.remoteAddress?.ipAddress ?? "unknown"
    }
}
