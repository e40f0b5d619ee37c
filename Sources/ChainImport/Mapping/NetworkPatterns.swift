import Foundation

/// A mapping file's `network_patterns`: chains recognised by how their locations are named, for files that name a
/// store rather than its chain. OpenStreetMap is the common case: a Finnish grocery is `name=K-Market Kamppi` with no
/// `brand` tag, so neither the brand column nor the brand catalogue (whole names) can tell which chain it is.
///
/// ```json
/// "network_patterns": {
///   "match": ["brand", "name"],
///   "rules": [{"pattern": "k-?\\s*supermarket", "network": "K-Supermarket"},
///             {"pattern": "k-?\\s*market", "network": "K-Market"}],
///   "unmatched": "reject"
/// }
/// ```
/// Each column (or GeoJSON property) of `match` is tried in turn — by default the network column — and the first
/// value some rule's pattern matches at its start, ignoring case, decides: the row's network is that rule's
/// `network`, resolved as a network column's value is (an id, an alias, the brand catalogue). Rules are tried in file
/// order, so a more specific pattern goes first. A row no rule matches keeps its network column's value
/// (`"unmatched": "keep"`, the default) or is rejected `unmatched_network` (`"reject"`: the file holds other places
/// than the chains wanted, as an OpenStreetMap extract does).
package struct NetworkPatterns: Sendable, Codable, Equatable {
    package struct Rule: Sendable, Codable, Equatable {
        /// A regular expression (ICU syntax, as NSRegularExpression reads it: `\s`, `\b`, `[’']`, `(?:…)`), matched
        /// at the value's start.
        package var pattern: String
        package var network: String

        package init(pattern: String, network: String) {
            self.pattern = pattern
            self.network = network
        }
    }

    package enum Unmatched: String, Sendable, Codable, Equatable {
        case keep, reject
    }

    /// The columns or properties whose values the rules are tried on, in turn; nil means the network column.
    package var match: [String]?
    package var rules: [Rule]
    package var unmatched: Unmatched?

    package init(match: [String]? = nil, rules: [Rule], unmatched: Unmatched? = nil) {
        self.match = match
        self.rules = rules
        self.unmatched = unmatched
    }

    /// Why the patterns cannot be used, for the mapping file's error; nil when they can.
    func problem() -> String? {
        if rules.isEmpty { return "network_patterns has no rules" }
        if match?.isEmpty == true { return "network_patterns.match names no column" }
        for (i, rule) in rules.enumerated() {
            if rule.network.trimmingCharacters(in: .whitespaces).isEmpty { return "network_patterns rule \(i + 1) has no network" }
            if NetworkPatternMatcher.compile(rule.pattern) == nil {
                return "network_patterns rule \(i + 1): '\(rule.pattern.clipped(60))' is not a regular expression"
            }
            if let unsafe = PatternSafety.problem(rule.pattern) { return "network_patterns rule \(i + 1): \(unsafe)" }
        }
        return nil
    }
}

/// `NetworkPatterns` compiled once per import. NSRegularExpression rather than Swift's `Regex`: it is immutable and
/// Sendable, so the parser can carry it to the core it runs on.
struct NetworkPatternMatcher: Sendable {
    private let rules: [Rule]
    let rejectsUnmatched: Bool

    private struct Rule: Sendable {
        let regex: NSRegularExpression
        let network: String
    }

    /// Nil when the patterns do not compile (`MappingFile.load` has refused such a file already).
    init?(_ patterns: NetworkPatterns) {
        var rules: [Rule] = []
        for rule in patterns.rules {
            guard let regex = Self.compile(rule.pattern) else { return nil }
            rules.append(Rule(regex: regex, network: rule.network.trimmingCharacters(in: .whitespaces)))
        }
        self.rules = rules
        rejectsUnmatched = patterns.unmatched == .reject
    }

    static func compile(_ pattern: String) -> NSRegularExpression? {
        try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
    }

    /// What the rules made of a row's values.
    enum Outcome: Equatable {
        case matched(String)
        case unmatched
        /// Rule `rule` (from 1) was stopped on `value` at the time limit, or the import's budget was spent: the row's
        /// network cannot be told.
        case cutOff(rule: Int, value: String, budgetSpent: Bool)
    }

    /// The network of the first rule matching the start of the first value some rule matches. Each match may run for
    /// `budget.perValue`, all of an import's for `budget.perImport`; a match stopped there is `cutOff`.
    func network(for values: [String], budget: inout PatternBudget) -> Outcome {
        for value in values {
            let whole = NSRange(value.startIndex..., in: value)
            for (r, rule) in rules.enumerated() {
                guard !budget.isSpent else { return .cutOff(rule: r + 1, value: value, budgetSpent: true) }
                let started = ContinuousClock.now
                let limit = min(budget.perValue, budget.remaining)
                var matched = false
                var stopped = false
                // `reportProgress` has ICU call back while a match runs, which is where a runaway one is stopped.
                rule.regex.enumerateMatches(in: value, options: [.anchored, .reportProgress], range: whole) { result, _, stop in
                    if result != nil {
                        matched = true
                        stop.pointee = true
                    } else if ContinuousClock.now - started > limit {
                        stopped = true
                        stop.pointee = true
                    }
                }
                budget.spend(ContinuousClock.now - started)
                if stopped { return .cutOff(rule: r + 1, value: value, budgetSpent: budget.isSpent) }
                if matched { return .matched(rule.network) }
            }
        }
        return .unmatched
    }
}

/// The time an import's `network_patterns` may take: a budget per value and one for the whole import, so that no
/// pattern, however it backtracks, holds an import for long. A real chain's patterns take microseconds per value.
struct PatternBudget: Sendable {
    var perValue = Duration.milliseconds(25)
    var perImport = Duration.seconds(10)
    private(set) var spent = Duration.zero

    var remaining: Duration { max(.zero, perImport - spent) }
    var isSpent: Bool { spent >= perImport }
    mutating func spend(_ time: Duration) { spent += time }
}
