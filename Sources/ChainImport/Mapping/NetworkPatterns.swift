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
        public var network: String

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
    public var rules: [Rule]
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

    /// The network of the first rule matching the start of the first value some rule matches.
    func network(for values: [String]) -> String? {
        for value in values {
            let whole = NSRange(value.startIndex..., in: value)
            for rule in rules where rule.regex.firstMatch(in: value, options: [.anchored], range: whole) != nil {
                return rule.network
            }
        }
        return nil
    }
}
