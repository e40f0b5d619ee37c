import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Whether `oncue serve` can bind its address, asked before the index loads: a busy port used to surface only after a
/// minute of loading, as `bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)`.
enum PortProbe {
    /// nil when `host:port` can be bound now (as the server binds it, with SO_REUSEADDR); else why not, in words.
    static func problem(host: String, port: Int) -> String? {
        guard port != 0 else { return nil }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
            return "cannot resolve the address '\(host)' to bind"
        }
        defer { freeaddrinfo(found) }
        let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard fd >= 0 else { return nil }  // let the server report what it finds
        defer { close(fd) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) != 0 else { return nil }
        switch errno {
        case EADDRINUSE: return "port \(port) on \(host) is in use by another process; stop it or choose another with --port"
        case EACCES: return "port \(port) on \(host) needs privileges this process lacks (ports below 1024 need root); choose another with --port"
        case EADDRNOTAVAIL: return "\(host) is not an address of this machine; choose another with --host"
        default: return "cannot bind \(host):\(port): \(String(cString: strerror(errno)))"
        }
    }
}
