import NIOCore
import Testing

@testable import RefreshServer

/// The rate limiter keys clients on the bytes of their address, read out of the socket address structures.
@Suite struct ClientKeyTests {
    /// The key's bytes in memory order, which is network order, as `inet_pton` would give them.
    private func bytes(_ key: ClientKey) -> [UInt8]? {
        switch key {
        case .v4(let a): withUnsafeBytes(of: a) { Array($0) }
        case .v6(let hi, let lo): withUnsafeBytes(of: hi) { Array($0) } + withUnsafeBytes(of: lo) { Array($0) }
        case .named: nil
        }
    }

    @Test func ipv4KeyIsTheAddressWithoutThePort() throws {
        let a = ClientKey(try SocketAddress(ipAddress: "192.0.2.7", port: 41_000))
        #expect(bytes(a) == [192, 0, 2, 7])
        #expect(a == ClientKey(try SocketAddress(ipAddress: "192.0.2.7", port: 41_001)))
        #expect(a != ClientKey(try SocketAddress(ipAddress: "192.0.2.8", port: 41_000)))
    }

    @Test func ipv6KeyIsTheAddressWithoutThePort() throws {
        let a = ClientKey(try SocketAddress(ipAddress: "2001:db8::1:2", port: 8080))
        #expect(bytes(a) == [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0, 0x02])
        #expect(a == ClientKey(try SocketAddress(ipAddress: "2001:db8::1:2", port: 9090)))
        #expect(a != ClientKey(try SocketAddress(ipAddress: "2001:db8::1:3", port: 8080)))
        #expect(ClientKey(nil) == .named("unknown"))
    }

    @Test func clientsHaveBucketsOfTheirOwn() throws {
        let limiter = TokenBucketLimiter(requestsPerSecond: 1, burst: 2, clock: { 0 })
        let a = ClientKey(try SocketAddress(ipAddress: "192.0.2.7", port: 1))
        let b = ClientKey(try SocketAddress(ipAddress: "192.0.2.8", port: 1))
        #expect(limiter.acquire(client: a) == .allowed)
        #expect(limiter.acquire(client: a) == .allowed)
        #expect(limiter.acquire(client: a) == .denied(retryAfter: 1))
        #expect(limiter.acquire(client: b) == .allowed)
    }
}
