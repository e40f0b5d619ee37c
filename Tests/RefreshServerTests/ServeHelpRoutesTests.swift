import ArgumentParser
import Foundation
import HTTPTypes
import Testing

@testable import RefreshServer
@testable import oncue

/// `oncue serve --help` names every route the server registers with its methods, and no other: the text is written
/// from `RouteTable`, so a route added to the table is in the help without anyone editing it.
@Suite struct ServeHelpRoutesTests {
    struct Named: Hashable {
        var method: String
        var path: String
    }

    @Test func theHelpNamesExactlyTheRouteTable() throws {
        let help = Serve.helpMessage(columns: 10_000)
        let paragraph = try #require(help.split(separator: "\n").first { $0.hasPrefix("Routes:") })
        // `GET|HEAD /healthz,` → (GET, /healthz), (HEAD, /healthz)
        let pattern = try NSRegularExpression(pattern: "([A-Z]+(?:\\|[A-Z]+)*) (/[^ ,;]*[^ ,;.])")
        let text = String(paragraph)
        var named = Set<Named>()
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let methods = String(text[Range(match.range(at: 1), in: text)!])
            let path = String(text[Range(match.range(at: 2), in: text)!])
            for method in methods.split(separator: "|") { named.insert(Named(method: String(method), path: path)) }
        }
        #expect(named == Set(RouteTable.all.map { Named(method: $0.method.rawValue, path: $0.path) }))
        #expect(text.contains("with an admin token POST|GET /admin/imports"))
    }
}

extension ServeHelpRoutesTests {
    /// docs/architecture.md's route table names the same routes, in the same `GET|HEAD /path` form (the bar escaped, as
    /// a Markdown table needs it inside code).
    @Test func theArchitecturesRouteTableIsTheRouteTable() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let document = try String(contentsOf: repo.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let start = try #require(document.range(of: "| routes (`RouteTable`"))
        let table = document[start.lowerBound...].split(separator: "\n").prefix { $0.hasPrefix("|") }
        let pattern = try NSRegularExpression(pattern: "`([A-Z]+(?:\\\\\\|[A-Z]+)*) (/[^`]*)`")
        var named = Set<Named>()
        for line in table {
            let text = String(line)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let methods = String(text[Range(match.range(at: 1), in: text)!])
                let path = String(text[Range(match.range(at: 2), in: text)!])
                for method in methods.split(separator: "\\|") { named.insert(Named(method: String(method), path: path)) }
            }
        }
        #expect(named == Set(RouteTable.all.map { Named(method: $0.method.rawValue, path: $0.path) }))
    }
}
