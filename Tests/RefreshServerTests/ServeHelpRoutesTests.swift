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
