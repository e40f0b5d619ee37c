import ArgumentParser
import Foundation
import HTTPTypes
import Testing

@testable import RefreshServer
@testable import oncue

/// `oncue serve --help` and docs/architecture.md name every route the server registers with its methods, and no
/// other: the help is written from `RouteTable`, and the document is held to it here.
@Suite struct ServeHelpRoutesTests {
    struct Named: Hashable {
        var method: String
        var path: String
    }

    static var table: Set<Named> { Set(RouteTable.all.map { Named(method: $0.method.rawValue, path: $0.path) }) }

    /// The routes `text` names as `GET|HEAD /path` (`separator` between methods), one pair per method.
    static func routes(in text: String, pattern: String, separator: String) throws -> Set<Named> {
        let expression = try NSRegularExpression(pattern: pattern)
        var named = Set<Named>()
        for match in expression.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let methods = String(text[Range(match.range(at: 1), in: text)!])
            let path = String(text[Range(match.range(at: 2), in: text)!])
            for method in methods.split(separator: separator) { named.insert(Named(method: String(method), path: path)) }
        }
        return named
    }

    @Test func theHelpNamesExactlyTheRouteTable() throws {
        let help = Serve.helpMessage(columns: 10_000)
        let paragraph = String(try #require(help.split(separator: "\n").first { $0.hasPrefix("Routes:") }))
        // `GET|HEAD /healthz,` → (GET, /healthz), (HEAD, /healthz)
        #expect(try Self.routes(in: paragraph, pattern: "([A-Z]+(?:\\|[A-Z]+)*) (/[^ ,;]*[^ ,;.])", separator: "|") == Self.table)
        #expect(paragraph.contains("with an admin key of at least role read: GET /admin/imports"))
    }

    /// The document writes the bar escaped, as a Markdown table needs it inside code.
    @Test func theArchitecturesRouteTableIsTheRouteTable() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let document = try String(contentsOf: repo.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let start = try #require(document.range(of: "| routes (`RouteTable`"))
        let table = document[start.lowerBound...].split(separator: "\n").prefix { $0.hasPrefix("|") }.joined(separator: "\n")
        #expect(try Self.routes(in: table, pattern: "`([A-Z]+(?:\\\\\\|[A-Z]+)*) (/[^`]*)`", separator: "\\|") == Self.table)
    }
}
