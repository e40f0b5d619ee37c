import Foundation
import Testing

/// docs/client.md's event and action tables name every case the library has, so an app team reading them misses none.
@Suite struct ClientDocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..").standardized

    /// The case names of the first enum declared in a source file (`case name(…)` or `case name` lines).
    static func cases(in file: String) throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        let body = text.components(separatedBy: "\n}\n")[0]
        return body.split(separator: "\n").compactMap { line in
            let t = line.trimmingCharacters(in: .whitespaces)
            guard t.hasPrefix("case "), !t.contains("=") else { return nil }
            return String(t.dropFirst(5).prefix { $0.isLetter || $0.isNumber })
        }
    }

    @Test(arguments: ["Sources/OnCueClient/Machine/ClientEvent.swift", "Sources/OnCueClient/Machine/ClientAction.swift"])
    func everyCaseIsInTheTables(file: String) throws {
        let docs = try String(contentsOf: Self.root.appendingPathComponent("docs/client.md"), encoding: .utf8)
        let names = try Self.cases(in: file)
        #expect(names.count >= 10)
        for name in names { #expect(docs.contains("`.\(name)"), "docs/client.md does not name .\(name)") }
    }
}
