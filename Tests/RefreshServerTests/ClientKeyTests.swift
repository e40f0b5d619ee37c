import HTTPTypes
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

    @Test func cidrBlocksHoldWhatTheirPrefixSays() throws {
        let ten = try #require(IPNetwork("10.0.0.0/8"))
        #expect(ten.contains(try #require(IPNetwork.addressBytes("10.200.3.4"))))
        #expect(!ten.contains(try #require(IPNetwork.addressBytes("11.0.0.1"))))
        #expect(!ten.contains(try #require(IPNetwork.addressBytes("::ffff:10.0.0.1"))))
        let doc = try #require(IPNetwork("2001:db8::1/33"))
        #expect(doc.description == "2001:db8::/33")
        #expect(doc.contains(try #require(IPNetwork.addressBytes("2001:db8:7fff::9"))))
        #expect(!doc.contains(try #require(IPNetwork.addressBytes("2001:db8:8000::9"))))
        #expect(IPNetwork("192.0.2.7")?.description == "192.0.2.7/32")
        for bad in ["10.0.0.0/33", "300.1.1.1", "10.0.0.0/", "fe80::/x", "", "10.0.0.0/٣", "example.com"] { #expect(IPNetwork(bad) == nil, "\(bad)") }
    }

    @Test func theClientIsTheRightMostAddressNotATrustedProxy() throws {
        let resolver = ClientResolver(header: .init("X-Forwarded-For"), trusted: [IPNetwork("10.0.0.0/8")!, IPNetwork("127.0.0.1")!])
        let proxy = ClientKey(try SocketAddress(ipAddress: "10.1.1.1", port: 1))
        let stranger = ClientKey(try SocketAddress(ipAddress: "192.0.2.50", port: 1))
        func key(_ text: String) -> ClientKey { ClientKey(bytes: IPNetwork.addressBytes(text)!) }
        #expect(resolver.client(peer: proxy, headerValues: ["1.2.3.4, 198.51.100.7, 10.0.0.9"]) == key("198.51.100.7"))
        #expect(resolver.client(peer: proxy, headerValues: ["1.2.3.4", "198.51.100.7:4431"]) == key("198.51.100.7"))
        #expect(resolver.client(peer: proxy, headerValues: ["10.0.0.2, 10.0.0.3"]) == key("10.0.0.2"))
        #expect(resolver.client(peer: proxy, headerValues: ["1.2.3.4, unknown"]) == .named("unknown"))
        #expect(resolver.client(peer: stranger, headerValues: ["198.51.100.7"]) == stranger)
        #expect(resolver.client(peer: proxy, headerValues: []) == proxy)
        let forwarded = ClientResolver(header: .init("Forwarded"), trusted: [])
        let loopback = ClientKey(try SocketAddress(ipAddress: "127.0.0.1", port: 1))
        #expect(
            forwarded.client(peer: loopback, headerValues: [#"for=1.2.3.4;proto=https, for="[2001:db8::7]:4711";by=x"#])
                == key("2001:db8::7"))
    }
}
