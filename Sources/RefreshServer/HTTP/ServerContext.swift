import Hummingbird
import NIOCore

/// The per-request context: Hummingbird's core storage plus the connection, whose peer address the rate
/// limiter keys on.
package struct ServerContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    let channel: any Channel
    /// The admin key an `/admin/*` request acts as, once `AdminAuthMiddleware` has accepted it.
    var admin: AdminPrincipal?
    /// The client a public request counts against once `ClientTokenMiddleware` verified its token: its subject, hashed.
    var clientSubject: ClientKey?

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The peer's IP address as the rate limiter keys it: its bytes, not its text, which every request would
    /// otherwise format anew.
    var peer: ClientKey { ClientKey(channel.remoteAddress) }
}

/// Whom a request counts against in the rate limiter: the peer's IPv4 or IPv6 address, or a name (the first address
/// in a configured header, when the server sits behind a proxy).
enum ClientKey: Hashable, Sendable {
    case v4(UInt32)
    case v6(UInt64, UInt64)
    case named(String)

    /// The key of a peer address (its port left out).
    init(_ address: SocketAddress?) {
        // The address bytes sit at offset 4 of a sockaddr_in and 8 of a sockaddr_in6, after the family, the port (and
        // the IPv6 flow label), on Linux as on the BSDs.
        switch address {
        case .v4(let address)?:
            self = withUnsafeBytes(of: address.address) { .v4($0.loadUnaligned(fromByteOffset: 4, as: UInt32.self)) }
        case .v6(let address)?:
            self = withUnsafeBytes(of: address.address) {
                .v6($0.loadUnaligned(fromByteOffset: 8, as: UInt64.self), $0.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
            }
        case let other?:
            self = .named(other.description)
        case nil:
            self = .named("unknown")
        }
    }

    /// The key of an address's bytes (4 or 16; anything else is named by its bytes).
    init(bytes: [UInt8]) {
        switch bytes.count {
        case 4: self = bytes.withUnsafeBytes { .v4($0.loadUnaligned(as: UInt32.self)) }
        case 16:
            self = bytes.withUnsafeBytes {
                .v6($0.loadUnaligned(fromByteOffset: 0, as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
        default: self = .named(bytes.map(String.init).joined(separator: "."))
        }
    }

    /// The address's bytes in network order; nil for a named client.
    var bytes: [UInt8]? {
        switch self {
        case .v4(let a): withUnsafeBytes(of: a) { Array($0) }
        case .v6(let hi, let lo): withUnsafeBytes(of: hi) { Array($0) } + withUnsafeBytes(of: lo) { Array($0) }
        case .named: nil
        }
    }
}
