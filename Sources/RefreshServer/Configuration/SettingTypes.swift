import ChainImport
import Foundation
import HTTPTypes
import LocationStore
import Logging

// The types of `oncue serve`'s settings: each one parser, one set of bounds and one way to show a value.

extension SettingType where Value == Int {
    static func integer(in range: ClosedRange<Int>, valueName: String) -> Self {
        Self(
            valueName: valueName,
            bounds: .integers(range),
            parse: { text throws(SettingRefusal) in
                guard let value = Int(text), range.contains(value) else {
                    throw SettingRefusal("must be an integer in \(range.lowerBound)...\(range.upperBound)")
                }
                return value
            },
            format: { String($0) }
        )
    }
}

extension SettingType where Value == Double {
    static func number(in range: ClosedRange<Double>, lowerExcluded: Bool = false, valueName: String) -> Self {
        let bounds = SettingBounds.numbers(range, lowerExcluded: lowerExcluded)
        return Self(
            valueName: valueName,
            bounds: bounds,
            parse: { text throws(SettingRefusal) in
                guard let value = Double(text), value.isFinite, range.contains(value), !(lowerExcluded && value == range.lowerBound) else {
                    throw SettingRefusal("must be a number in \(bounds)")
                }
                return value
            },
            format: SettingText.number
        )
    }
}

extension SettingType where Value == Duration {
    /// Seconds (`1.5`), or a number with a unit: `ms`, `s`, `m`, `h` (`500ms`, `2m`); kept to the nanosecond.
    static func duration(in range: ClosedRange<Duration>) -> Self {
        let bounds = SettingBounds.durations(range)
        return Self(
            valueName: "duration",
            bounds: bounds,
            parse: { text throws(SettingRefusal) in
                let refusal = SettingRefusal("must be a duration in \(bounds): seconds, or a number with ms, s, m or h")
                let units: [(suffix: String, nanoseconds: Double)] = [("ms", 1e6), ("s", 1e9), ("m", 60e9), ("h", 3_600e9)]
                let unit = units.first { text.hasSuffix($0.suffix) }
                guard let number = Double(text.dropLast(unit?.suffix.count ?? 0)), number.isFinite else { throw refusal }
                let nanoseconds = (number * (unit?.nanoseconds ?? 1e9)).rounded()
                // Compared as nanoseconds, after rounding, so that "0.1" is exactly the bound 100ms.
                guard abs(nanoseconds) < 1e18, range.contains(.nanoseconds(Int64(nanoseconds))) else { throw refusal }
                return .nanoseconds(Int64(nanoseconds))
            },
            format: SettingText.duration
        )
    }
}

extension SettingType where Value == Logger.Level {
    static var logLevel: Self {
        let words = Logger.Level.allCases.map(\.rawValue)
        return Self(
            valueName: "level",
            bounds: .choices(words),
            parse: { text throws(SettingRefusal) in
                guard let level = Logger.Level(rawValue: text.lowercased()) else {
                    throw SettingRefusal("must be one of \(words.joined(separator: ", "))")
                }
                return level
            },
            format: { $0.rawValue }
        )
    }
}

extension SettingType where Value == String {
    /// An address to bind: a name or a literal address, without white space or control characters.
    static var host: Self {
        Self(
            valueName: "address",
            bounds: .form("a host name or IP address"),
            parse: { text throws(SettingRefusal) in
                guard !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) else {
                    throw SettingRefusal("must be a host name or IP address")
                }
                return text
            },
            format: { $0 }
        )
    }
}

extension SettingType where Value == [IPNetwork] {
    /// IP address blocks in CIDR notation, separated by commas (a repeated flag is joined so).
    static var ipNetworks: Self {
        Self(
            valueName: "cidr",
            bounds: .form("IPv4 or IPv6 blocks in CIDR notation, comma-separated"),
            parse: { text throws(SettingRefusal) in
                var networks: [IPNetwork] = []
                for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                    let trimmed = part.trimmingCharacters(in: .whitespaces)
                    guard let network = IPNetwork(trimmed) else {
                        throw SettingRefusal("must be IP blocks in CIDR notation (10.0.0.0/8, 2001:db8::/32)")
                    }
                    networks.append(network)
                }
                return networks
            },
            format: { $0.map(\.description).joined(separator: ",") }
        )
    }
}

extension SettingType where Value == String? {
    /// An HTTP header name (a token: letters, digits and ``!#$%&'*+-.^_`|~``).
    static var headerName: Self {
        Self(
            valueName: "header",
            bounds: .form("an HTTP header name"),
            parse: { text throws(SettingRefusal) in
                guard HTTPField.Name(text) != nil else { throw SettingRefusal("must be an HTTP header name") }
                return text
            },
            format: { $0 ?? "" }
        )
    }

    /// A PostgreSQL URL, checked as the store will read it; shown without its password.
    static var postgresURL: Self {
        Self(
            valueName: "url",
            bounds: .form("a postgres:// URL"),
            parse: { text throws(SettingRefusal) in
                do throws(StoreError) {
                    _ = try PostgresURL(text)
                } catch {
                    throw SettingRefusal("must be a postgres:// URL (\(error.description))")
                }
                return text
            },
            format: { $0.map(PostgresURL.redact) ?? "" }
        )
    }

    /// A bearer token; never shown, only said to be set.
    static var adminToken: Self {
        Self(
            valueName: "token",
            bounds: .form("at least 16 characters"),
            parse: { text throws(SettingRefusal) in
                // An empty or short token would make every request, or a guess, "authenticated".
                guard text.count >= 16 else { throw SettingRefusal("must be at least 16 characters") }
                return text
            },
            format: { $0 == nil ? "" : "(set)" }
        )
    }

    /// A file whose first line (without surrounding spaces) is a bearer token; the value is the token.
    static var adminTokenFile: Self {
        Self(
            valueName: "file",
            bounds: .form("a readable file whose first line has at least 16 characters"),
            parse: { path throws(SettingRefusal) in
                guard let data = FileManager.default.contents(atPath: path) else { throw SettingRefusal("names a file that cannot be read") }
                let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
                let token = line.trimmingCharacters(in: .whitespaces)
                guard token.count >= 16 else { throw SettingRefusal("names a file whose first line is not a token of at least 16 characters") }
                return token
            },
            format: { $0 == nil ? "" : "(set)" }
        )
    }
}

extension SettingType where Value == URL? {
    /// An http(s) URL with a host, such as a geocoder's; shown without its password.
    static var httpURL: Self {
        Self(
            valueName: "url",
            bounds: .form("an http:// or https:// URL with a host"),
            parse: { text throws(SettingRefusal) in
                guard let url = GeocoderSettings.baseURL(text) else { throw SettingRefusal("must be an http:// or https:// URL with a host") }
                return url
            },
            format: { url in
                guard let url else { return "" }
                guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false), parts.password != nil else { return url.absoluteString }
                parts.password = "***"
                return parts.string ?? "(a URL)"
            }
        )
    }
}

extension SettingType where Value == String? {
    /// A tile URL template: http(s), a host, and `{z}`, `{x}`, `{y}` (`{s}` subdomains allowed).
    static var tileURLTemplate: Self {
        Self(
            valueName: "url",
            bounds: .form("an http(s) URL template with {z}, {x} and {y}"),
            parse: { text throws(SettingRefusal) in
                guard ConsoleTiles(template: text) != nil else {
                    throw SettingRefusal("must be an http:// or https:// URL template with a host and {z}, {x} and {y}")
                }
                return text
            },
            format: { $0 ?? "" }
        )
    }
}

extension SettingType where Value == String {
    /// Any text of at most `maxLength` characters, without control characters.
    static func text(maxLength: Int) -> Self {
        Self(
            valueName: "text",
            bounds: .form("text of at most \(maxLength) characters"),
            parse: { text throws(SettingRefusal) in
                guard text.count <= maxLength, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                    throw SettingRefusal("must be text of at most \(maxLength) characters, without control characters")
                }
                return text
            },
            format: { $0 }
        )
    }
}

extension SettingType where Value == String? {
    /// Optional text of at most `maxLength` characters, without control characters (a JWT's expected issuer).
    static func optionalText(maxLength: Int) -> Self {
        let text = SettingType<String>.text(maxLength: maxLength)
        return Self(
            valueName: text.valueName, bounds: text.bounds, parse: { value throws(SettingRefusal) in try text.parse(value) }, format: { $0 ?? "" })
    }
}

extension SettingType where Value == ClientJWTKey? {
    /// A file with the HS256 secret or a JWKS document (`ClientJWTKey(file:)`); never shown, only said to be set.
    static var clientJWTKey: Self {
        Self(
            valueName: "file",
            bounds: .form("a file holding an HS256 secret of at least 32 bytes, or a JWKS document"),
            parse: { path throws(SettingRefusal) in try ClientJWTKey(file: path) },
            format: { key in
                switch key {
                case nil: ""
                case .hmacSecret?: "(an HS256 secret)"
                case .jwks?: "(a JWKS document)"
                }
            }
        )
    }
}

/// Values as a reader writes them, in help, README and `--print-configuration`.
enum SettingText {
    /// A number: `50`, `0.5`, `1e9` (a large power of ten, as the parser also reads it).
    static func number(_ value: Double) -> String {
        guard value == value.rounded() && abs(value) < 1e15 else { return String(value) }
        for exponent in 6...14 where value == pow(10, Double(exponent)) { return "1e\(exponent)" }
        return String(Int64(value))
    }

    /// A duration in the largest unit that holds it exactly: `1h`, `15m`, `10s`, `100ms`, `1.5s`.
    static func duration(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        for (unit, size) in [("h", Int64(3_600_000_000_000)), ("m", 60_000_000_000), ("s", 1_000_000_000), ("ms", 1_000_000)]
        where nanoseconds % size == 0 && (nanoseconds != 0 || unit == "s") {
            return "\(nanoseconds / size)\(unit)"
        }
        return "\(number(Double(nanoseconds) / 1e9))s"
    }
}

extension Duration {
    /// The duration as seconds, for the parts of the server that count in them.
    var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension SettingType where Value == [NamedGeocoder] {
    /// Geocoders: `URL` (named `default`) or `NAME=URL`, comma-separated; names are lower-case letters, digits and '-'.
    static var namedGeocoders: Self {
        Self(
            valueName: "[name=]url",
            bounds: .form("http(s) URLs, each optionally NAME=URL, comma-separated"),
            parse: { text throws(SettingRefusal) in
                var found: [NamedGeocoder] = []
                for part in text.split(separator: ",") {
                    let item = part.trimmingCharacters(in: .whitespaces)
                    var name = NamedGeocoder.defaultName
                    var urlText = item
                    if let eq = item.firstIndex(of: "="), !item[..<eq].contains(":") {
                        name = String(item[..<eq])
                        urlText = String(item[item.index(after: eq)...])
                    }
                    guard NamedGeocoder.isValidName(name) else {
                        throw SettingRefusal("geocoder names are lower-case letters, digits and '-' (got '\(name.prefix(40))')")
                    }
                    guard let url = GeocoderSettings.baseURL(urlText) else { throw SettingRefusal("must be http:// or https:// URLs with a host") }
                    guard !found.contains(where: { $0.name == name }) else { throw SettingRefusal("names the geocoder '\(name)' twice") }
                    found.append(NamedGeocoder(name: name, url: url))
                }
                return found
            },
            format: { geocoders in
                geocoders.map { g in
                    var shown = g.url.absoluteString
                    if var parts = URLComponents(url: g.url, resolvingAgainstBaseURL: false), parts.password != nil {
                        parts.password = "***"
                        shown = parts.string ?? "(a URL)"
                    }
                    return g.name == NamedGeocoder.defaultName ? shown : "\(g.name)=\(shown)"
                }.joined(separator: ",")
            }
        )
    }
}
