import Foundation
import LocationStore
import Testing

@testable import ChainImport

/// `network_patterns` that could hold an import for hours are refused when the mapping is read, and every match runs
/// under a budget whose overrun is a rejected row with a reason, never a silent "no match".
@Suite struct PatternSafetyTests {
    @Test(
        "patterns whose matching can take exponential time, and backreferences, are refused",
        arguments: [
            "^(a+)+$", "(a*)*", "(?:a{2,})+", "((ab)+)*", "(a|ab)+", "(A|a)*", #"(\w+\s?)*"#, "(x+x+)+y", #"(a)\1"#,
            #"(?<n>a)\k<n>"#, "((a+))+", "(?i:(?:b+c?)+)",
        ])
    func refused(pattern: String) {
        #expect(PatternSafety.problem(pattern) != nil, "\(pattern)")
        let file = MappingFile(networkPatterns: NetworkPatterns(rules: [.init(pattern: pattern, network: "A")]))
        #expect(file.networkPatterns?.problem() != nil)
    }

    @Test(
        "real chains' patterns and other linear shapes are taken",
        arguments: [
            #"k-?\s*supermarket"#, #"k-?\s*market"#, #"alepa\b"#, #"s-?\s*market|sale\b"#, "(ab)+", "[a+]+", "a{2}", "(a|b)+",
            #"\(a+\)+"#, "(?:a|b)c+", #"lidl(?:\s+\w+)?"#, "x{2,3}y*", "(?i)r-?kioski",
        ])
    func taken(pattern: String) {
        #expect(PatternSafety.problem(pattern) == nil, "\(pattern): \(PatternSafety.problem(pattern) ?? "")")
    }

    @Test("a mapping file with such a pattern refuses the import before any row, naming the rule")
    func mappingFileRefused() {
        let json = #"{"network_patterns": {"rules": [{"pattern": "k-?market", "network": "K"}, {"pattern": "^(a+)+$", "network": "A"}]}}"#
        #expect {
            _ = try MappingFile.decode(Data(json.utf8), source: "mapping.json")
        } throws: { error in
            "\(error)".contains("rule 2") && "\(error)".contains("exponential")
        }
    }

    @Test("a match stopped at its limit rejects its row pattern_timeout; the budget spent, every later value is stopped at once")
    func budget() {
        // Built directly: `MappingFile` would refuse the pattern (above); the budget is for what the check cannot see.
        let matcher = NetworkPatternMatcher(NetworkPatterns(rules: [.init(pattern: "(a+)+$", network: "A")]))!
        var budget = PatternBudget(perValue: .milliseconds(20), perImport: .milliseconds(100))
        #expect(matcher.network(for: ["aaa"], budget: &budget) == .matched("A"))
        let runaway = String(repeating: "a", count: 40) + "!"
        let started = ContinuousClock.now
        guard case .cutOff(1, runaway, false) = matcher.network(for: [runaway], budget: &budget) else {
            Issue.record("the runaway match was not stopped")
            return
        }
        #expect(ContinuousClock.now - started < .seconds(1), "stopped near its 20 ms limit")
        for _ in 0..<10 { _ = matcher.network(for: [runaway], budget: &budget) }
        #expect(budget.isSpent)
        let after = ContinuousClock.now
        guard case .cutOff(_, _, true) = matcher.network(for: ["aaa"], budget: &budget) else {
            Issue.record("a value after the budget was spent was matched")
            return
        }
        #expect(ContinuousClock.now - after < .milliseconds(50))
    }

    @Test("an import: the runaway row rejected pattern_timeout with its rule, the others matched")
    func importRejectsTheStoppedRow() async throws {
        var options = ImportOptions()
        options.mapping = MappingFile(
            columns: [:], networkPatterns: NetworkPatterns(match: ["name"], rules: [.init(pattern: "(a+)+$", network: "A")], unmatched: .reject))
        let tmp = try TempStore()
        let report = try await tmp.importText(
            """
            id,name,brand,latitude,longitude
            1,aaaa,,60.1690,24.9330
            2,\(String(repeating: "a", count: 40))!,,60.1691,24.9331
            3,aaaaaa,,60.1692,24.9332
            """, options)
        let file = report.files[0]
        #expect(file.rejectedByReason == [ReasonCode.patternTimeout.rawValue: 1])
        let issue = file.issues.first { $0.code == ReasonCode.patternTimeout.rawValue }
        #expect(issue?.line == 3 && issue?.message.contains("rule 1") == true, "\(String(describing: issue))")
        #expect(Set(try tmp.snapshot().map(\.externalId)) == ["1", "3"])
    }
}
