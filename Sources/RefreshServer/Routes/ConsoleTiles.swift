import Foundation

/// A raster tile layer the console's map shows over its offline Natural Earth base (`--console-tiles`): a URL
/// template such as a self-hosted OpenStreetMap tile server's, `https://tiles.example.org/{z}/{x}/{y}.png`, and the
/// attribution its licence asks for. Without one the console requests nothing off its own server.
public struct ConsoleTiles: Sendable, Hashable {
    public var urlTemplate: String
    public var attribution: String

    public static let defaultAttribution = "© OpenStreetMap contributors"

    /// Nil unless `template` is an http(s) URL with a host whose path or query names `{z}`, `{x}` and `{y}`.
    public init?(template: String, attribution: String = ConsoleTiles.defaultAttribution) {
        let filled = template.replacingOccurrences(of: "{z}", with: "1").replacingOccurrences(of: "{x}", with: "1")
            .replacingOccurrences(of: "{y}", with: "1").replacingOccurrences(of: "{s}", with: "a")
            .replacingOccurrences(of: "{r}", with: "")
        guard ["{z}", "{x}", "{y}"].allSatisfy(template.contains), let url = URL(string: filled),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false,
            !filled.contains("{"), !filled.contains("}"), url.user == nil
        else { return nil }
        self.urlTemplate = template
        self.attribution = attribution
    }

    /// The origin tiles come from, for the console's Content-Security-Policy (`img-src`); `{s}` subdomains become a
    /// wildcard.
    public var origin: String {
        let schemeEnd = urlTemplate.range(of: "://")!
        let afterScheme = urlTemplate[schemeEnd.upperBound...]
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return urlTemplate[..<schemeEnd.upperBound].lowercased() + authority.replacingOccurrences(of: "{s}", with: "*")
    }

    /// What the console reads from `/console/config.json`.
    static func configJSON(_ tiles: ConsoleTiles?) -> Data {
        var object: [String: Any] = ["tiles": NSNull()]
        if let tiles { object["tiles"] = ["url": tiles.urlTemplate, "attribution": tiles.attribution] }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{\"tiles\":null}".utf8)
    }
}
