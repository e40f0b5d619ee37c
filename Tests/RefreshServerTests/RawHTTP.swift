import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A blocking loopback TCP connection for tests that need control HTTP clients don't give:
/// sending half a request, then the rest later.
final class RawConnection {
    private let fd: Int32

    /// A connection to the server on loopback, from `source` (any 127.x.y.z address is this host's on Linux, so a
    /// test can play several clients).
    init(port: Int, from source: String = "127.0.0.1") throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        if source != "127.0.0.1" {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // No close here: a class whose initializer throws once every property is set still runs its deinit, which
        // closes the socket. Closing it here too closed it twice, and the second close could hit a descriptor another
        // thread had just been given (NIO then failed with EBADF in getsockname and stopped the test process).
        guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { if fd >= 0 { close(fd) } }

    func write(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw POSIXError(.EPIPE) }
            sent += n
        }
    }

    /// Reads until the peer closes or a full response (by Content-Length) has arrived.
    func readResponse() -> String {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            data += buffer[0..<n]
            let text = String(decoding: data, as: UTF8.self)
            if let headerEnd = text.range(of: "\r\n\r\n"),
                let lengthLine = text[..<headerEnd.lowerBound].split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }
                ),
                let length = Int(lengthLine.split(separator: ":")[1].trimmingSpaces),
                text.utf8.distance(from: headerEnd.upperBound.samePosition(in: text.utf8)!, to: text.utf8.endIndex) >= length
            {
                break
            }
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Reads until the peer closes (or the 60 s receive timeout passes: at the suite's busiest, CI has taken over 15 s to
    /// answer a raw request): everything the server sent.
    func readUntilClosed() -> (text: String, closed: Bool) {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n == 0 { return (String(decoding: data, as: UTF8.self), true) }
            if n < 0 { return (String(decoding: data, as: UTF8.self), errno == ECONNRESET) }
            data += buffer[0..<n]
        }
    }

    /// Whether the server still holds the connection open, without waiting: nothing to read yet and no close.
    var isOpen: Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
        return n > 0 || (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
    }

    /// One GET on a fresh connection; nil when nothing listens.
    static func get(port: Int, _ path: String) -> String? {
        guard let connection = try? RawConnection(port: port) else { return nil }
        guard (try? connection.write("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")) != nil else { return nil }
        return connection.readResponse()
    }
}
