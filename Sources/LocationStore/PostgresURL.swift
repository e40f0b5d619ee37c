import Foundation

/// A `postgres://` or `postgresql://` URL: user, password, host, port, database and `sslmode`, as libpq reads them.
///
/// Its `description` never shows the password, so a URL can go into messages, logs and metrics as it is.
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String
    public var sslMode: SSLMode
    /// How long a connection may take to open (libpq's `connect_timeout`, in whole seconds, 2 to 3600), and how long
    /// a connection kept open between uses may take to answer before it is given up. Unlike libpq, never unbounded:
    /// 0 or no value means the default, 10 s.
    public var connectTimeout: Duration = Self.defaultConnectTimeout
    static let defaultConnectTimeout = Duration.seconds(10)

    /// libpq's `sslmode` values. `prefer` and `allow` try TLS and fall back to plain; `require` insists on TLS without
    /// checking the server's certificate; `verify-ca` and `verify-full` check it (the system's trust roots).
    public enum SSLMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    /// Whether `text` names a PostgreSQL database rather than a store file.
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    public init(_ text: String) throws(StoreError) {
        guard Self.isURL(text), let components = URLComponents(string: text) else {
            throw .invalidArgument("not a postgres:// URL: \(Self.redact(text))")
        }
        guard let host = components.host, !host.isEmpty else { throw .invalidArgument("\(Self.redact(text)) names no host") }
        self.host = host
        port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw .invalidArgument("\(Self.redact(text)): port out of range") }
        user = components.user?.removingPercentEncoding ?? components.user ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
        password = components.password.map { $0.removingPercentEncoding ?? $0 }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? user : (path.removingPercentEncoding ?? path)
        var mode = SSLMode.prefer
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let value = item.value, let m = SSLMode(rawValue: value) else {
                    throw .invalidArgument("sslmode must be one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                mode = m
            case "connect_timeout":
                guard let value = item.value, let seconds = Int(value), (0...3600).contains(seconds) else {
                    throw .invalidArgument("connect_timeout must be a whole number of seconds, at most 3600")
                }
                connectTimeout = seconds == 0 ? Self.defaultConnectTimeout : .seconds(max(2, seconds))
            case "application_name":
                continue  // accepted for libpq compatibility; not used
            default:
                throw .invalidArgument("unknown parameter '\(item.name)' in \(Self.redact(text))")
            }
        }
        sslMode = mode
    }

    /// The URL with the password replaced by `***`.
    public var description: String {
        var c = URLComponents()
        c.scheme = "postgres"
        c.user = user
        if password != nil { c.password = "***" }
        c.host = host
        c.port = port
        c.path = "/" + database
        var items: [URLQueryItem] = []
        if sslMode != .prefer { items.append(URLQueryItem(name: "sslmode", value: sslMode.rawValue)) }
        if connectTimeout != Self.defaultConnectTimeout {
            items.append(URLQueryItem(name: "connect_timeout", value: String(connectTimeout.components.seconds)))
        }
        if !items.isEmpty { c.queryItems = items }
        return c.string ?? "postgres://\(host):\(port)/\(database)"
    }

    /// Any text that may hold a URL with a password, with the password taken out (for error messages about bad URLs).
    public static func redact(_ text: String) -> String {
        guard let c = URLComponents(string: text) else { return redactUnparsed(text) }
        guard c.password != nil else { return text }
        var redacted = c
        redacted.password = "***"
        return redacted.string ?? "(a postgres URL)"
    }

    /// Text URLComponents refuses (a port that is no number) may still hold `user:password@` after the scheme.
    private static func redactUnparsed(_ text: String) -> String {
        guard let scheme = text.range(of: "://") else { return text }
        let authority = text[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return text }
        return String(text[...colon]) + "***" + text[at...]
    }

    /// The same server with another database (tests create and drop their own).
    public func with(database: String) -> PostgresURL {
        var copy = self
        copy.database = database
        return copy
    }
}
