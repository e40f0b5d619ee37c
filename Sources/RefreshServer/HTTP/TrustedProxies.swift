import Foundation
import HTTPTypes
import NIOCore

/// A block of IP addresses written as CIDR (`10.0.0.0/8`, `2001:db8::/32`; a bare address is a block of one).
package struct IPNetwork: Sendable, Hashable, CustomStringConvertible {
    /// The network's address bytes (4 or 16), the bits past the prefix cleared.
    let bytes: [UInt8]
    let prefixLength: Int

    package init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPNetwork.addressBytes(parts[0]) else { return nil }
        let bits = address.count * 8
        var length = bits
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...bits).contains(given), parts[1].allSatisfy(\.isASCII) else { return nil }
            length = given
        }
        bytes = address.enumerated().map { i, byte in
            let kept = max(0, min(8, length - 8 * i))
            return kept == 0 ? 0 : byte & ~UInt8(truncatingIfNeeded: 0xFF >> kept)
        }
        prefixLength = length
    }

    /// Whether `address` (4 or 16 bytes) lies in this block; an IPv4 address never lies in an IPv6 block, nor back.
    func contains(_ address: [UInt8]) -> Bool {
        guard address.count == bytes.count else { return false }
        for i in 0..<bytes.count {
            let kept = max(0, min(8, prefixLength - 8 * i))
            if kept == 0 { return true }
            let mask = ~UInt8(truncatingIfNeeded: 0xFF >> kept)
            if address[i] & mask != bytes[i] { return false }
        }
        return true
    }

    package var description: String {
        let text = (try? SocketAddress(packedIPAddress: ByteBuffer(bytes: bytes), port: 0).ipAddress) ?? nil
        return "\(text ?? "?")/\(prefixLength)"
    }

    /// The bytes of an IPv4 or IPv6 address in text (no port, no brackets), or nil.
    static func addressBytes(_ text: some StringProtocol) -> [UInt8]? {
        guard !text.isEmpty, text.count <= 45, let address = try? SocketAddress(ipAddress: String(text), port: 0) else { return nil }
        return ClientKey(address).bytes
    }

    /// Loopback: who is trusted when a client header is named but no proxies are (a proxy on the same host).
    static let loopback = [IPNetwork("127.0.0.0/8")!, IPNetwork("::1")!]
}

/// Who a request comes from, behind proxies the operator trusts: without a client header the peer; with one, the
/// right-most address of that header that is not a trusted proxy, and only when the peer itself is one. Anything left
/// of that address was written by the client and is ignored, so a client cannot choose its own rate-limit bucket
/// (nginx's `$proxy_add_x_forwarded_for` appends the peer it saw to whatever the client sent).
struct ClientResolver: Sendable {
    let header: HTTPField.Name?
    let trusted: [IPNetwork]

    init(header: HTTPField.Name?, trusted: [IPNetwork]) {
        self.header = header
        self.trusted = trusted.isEmpty ? IPNetwork.loopback : trusted
    }

    func isTrusted(_ key: ClientKey) -> Bool {
        guard let bytes = key.bytes else { return false }
        return trusted.contains { $0.contains(bytes) }
    }

    /// The client of a request from `peer` whose client header (every line, in order) is `values`.
    func client(peer: ClientKey, headerValues values: [String]) -> ClientKey {
        guard let header, !values.isEmpty, isTrusted(peer) else { return peer }
        let hops = values.flatMap { Self.hops(in: $0, forwarded: header.canonicalName == "forwarded") }
        for hop in hops.reversed() {
            // A hop that is not an address (`unknown`, an obfuscated name) ends the walk: it is the client's name.
            guard let bytes = IPNetwork.addressBytes(hop) else { return .named(String(hop.prefix(100))) }
            let key = ClientKey(bytes: bytes)
            if !isTrusted(key) { return key }
        }
        return hops.first.flatMap { IPNetwork.addressBytes($0) }.map { ClientKey(bytes: $0) } ?? peer
    }

    /// The addresses of one header line, left to right: `X-Forwarded-For: a, b` or `Forwarded: for=a;proto=https, for="[b]:1"`
    /// (RFC 7239), each without quotes, brackets or port.
    static func hops(in value: String, forwarded: Bool) -> [Substring] {
        value.split(separator: ",").compactMap { element -> Substring? in
            var hop = element.trimmingCharacters(in: .whitespaces)[...]
            if forwarded {
                guard let pair = hop.split(separator: ";").first(where: { $0.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("for=") })
                else { return nil }
                hop = pair.trimmingCharacters(in: .whitespaces).dropFirst(4)
                if hop.hasPrefix("\""), hop.hasSuffix("\""), hop.count >= 2 { hop = hop.dropFirst().dropLast() }
            }
            if hop.hasPrefix("["), let close = hop.firstIndex(of: "]") { return hop[hop.index(after: hop.startIndex)..<close] }
            // An IPv4 address with a port has one colon; an IPv6 one without brackets has several.
            if hop.filter({ $0 == ":" }).count == 1, let colon = hop.firstIndex(of: ":") { return hop[..<colon] }
            return hop.isEmpty ? nil : hop
        }
    }
}
