import Foundation

/// A raster tile layer the console's map shows over its offline Natural Earth base (`--console-tiles`): a URL
/// template such as a self-hosted OpenStreetMap tile server's, `https://tiles.example.org/{z}/{x}/{y}.png`, and the
/// attribution its licence asks for. Without one the console requests nothing off its own server.
package struct ConsoleTiles: Sendable, Hashable {
    package let urlTemplate: String
    package let attribution: String
    /// The origin tiles come from, for the console's Content-Security-Policy (`img-src`); `{s}` subdomains become a
    /// wildcard.
    package let origin: String

    package static let defaultAttribution = "© OpenStreetMap contributors"

    /// Nil unless `template` is an http(s) URL whose path or query names `{z}`, `{x}` and `{y}`, and whose host is a
    /// name of letters, digits, dots and dashes (`{s}` only as its whole first label) with an optional port: what a
    /// Content-Security-Policy source can name (no IP v6 literal, nothing that would end the policy's directive).
    package init?(template: String, attribution: String = ConsoleTiles.defaultAttribution) {
        guard let schemeEnd = template.range(of: "://") else { return nil }
        let authority = template[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard Self.isPlainAuthority(authority) else { return nil }
        let filled = template.replacingOccurrences(of: "{z}", with: "1").replacingOccurrences(of: "{x}", with: "1")
            .replacingOccurrences(of: "{y}", with: "1").replacingOccurrences(of: "{s}", with: "a")
            .replacingOccurrences(of: "{r}", with: "")
        guard ["{z}", "{x}", "{y}"].allSatisfy(template.contains), let url = URL(string: filled),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false,
            !filled.contains("{"), !filled.contains("}"), url.user == nil
        else { return nil }
        self.urlTemplate = template
        self.attribution = attribution
        self.origin = template[..<schemeEnd.upperBound].lowercased() + authority.replacingOccurrences(of: "{s}", with: "*")
    }

    static func isPlainAuthority(_ authority: Substring) -> Bool {
        let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2 { guard !parts[1].isEmpty, parts[1].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isNumber) else { return false } }
        let labels = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard !labels.isEmpty else { return false }
        for (i, label) in labels.enumerated() {
            if i == 0 && label == "{s}" { continue }
            guard !label.isEmpty, label.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { return false }
        }
        return true
    }

    /// What the console reads from `/console/config.json`.
    static func configJSON(_ tiles: ConsoleTiles?) -> Data {
        var object: [String: Any] = ["tiles": NSNull()]
        if let tiles { object["tiles"] = ["url": tiles.urlTemplate, "attribution": tiles.attribution] }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{\"tiles\":null}".utf8)
    }
}
