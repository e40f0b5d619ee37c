import ChainImport
import Foundation
import TestSupport
import Testing

/// The README's table of reason codes is where admins look them up: it must name every code the import can log, and
/// no code it no longer does.
@Suite struct ReasonCodeDocsTests {
    @Test func theReadmeTableListsEveryReasonCode() throws {
        let readme = try String(contentsOf: SharedDatasets.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("Reason codes, in the summary") })
        let table = lines[(start + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.filter { $0.hasPrefix("| `") }
        let documented = Set(
            table.flatMap { row in
                row.split(separator: "|")[0].split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            })
        let codes = Set(ReasonCode.allCases.map(\.rawValue))
        #expect(codes.subtracting(documented).isEmpty, "not in the README's table: \(codes.subtracting(documented).sorted())")
        #expect(documented.subtracting(codes).isEmpty, "in the README's table but not a code: \(documented.subtracting(codes).sorted())")
    }
}
