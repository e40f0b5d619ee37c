import ChainImport
import Foundation
import TestSupport
import Testing

/// The table of reason codes in docs/importing.md is where admins look them up: it must name every code the import can log, and
/// no code it no longer does.
@Suite struct ReasonCodeDocsTests {
    @Test func theImportingPageListsEveryReasonCode() throws {
        let page = try String(contentsOf: SharedDatasets.repository.appendingPathComponent("docs/importing.md"), encoding: .utf8)
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("Reason codes, in the summary") })
        let table = lines[(start + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.filter { $0.hasPrefix("| `") }
        let documented = Set(
            table.flatMap { row in
                row.split(separator: "|")[0].split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            })
        let codes = Set(ReasonCode.allCases.map(\.rawValue))
        #expect(codes.subtracting(documented).isEmpty, "not in docs/importing.md's table: \(codes.subtracting(documented).sorted())")
        #expect(documented.subtracting(codes).isEmpty, "in docs/importing.md's table but not a code: \(documented.subtracting(codes).sorted())")
    }
}
