/// The shapes of regular expression whose matching can take exponential time in a backtracking engine (ICU's, which
/// NSRegularExpression is), refused when a mapping file is read: a group repeated without bound that itself holds a
/// repetition (`(a+)+`, `(\w*\s?)*`, `(?:a{2,})+`), a repeated group whose alternatives overlap in their first
/// character (`(a|ab)+`), and backreferences (`\1`, `\k<name>`), which no linear-time engine has either. `^(a+)+$`
/// against forty `a`s and a `!` took over a second per value before this.
///
/// The check reads the pattern's structure (groups, escapes, classes, quantifiers); it does not decide every pattern
/// that can backtrack, so matching also runs under a time budget (`NetworkPatternMatcher`).
enum PatternSafety {
    /// Why `pattern` is refused, or nil.
    static func problem(_ pattern: String) -> String? {
        var parser = Parser(Array(pattern.unicodeScalars))
        return parser.run()
    }

    private struct Group {
        var holdsRepetition = false
        var alternativeStarts: [Unicode.Scalar?] = []
        var atAlternativeStart = true
    }

    private struct Parser {
        let s: [Unicode.Scalar]
        var i = 0
        var stack: [Group] = [Group()]
        /// Whether the last item read can be quantified, and what it was: a group closed just now, or an atom.
        var lastGroup: Group?

        init(_ s: [Unicode.Scalar]) { self.s = s }

        mutating func run() -> String? {
            while i < s.count {
                let c = s[i]
                switch c {
                case "\\":
                    atom(first: nil)
                    if let problem = escape() { return problem }
                case "[":
                    atom(first: nil)
                    skipClass()
                case "(":
                    openGroup()
                case ")":
                    guard stack.count > 1 else { return nil }  // unbalanced: NSRegularExpression refuses it
                    let closed = stack.removeLast()
                    i += 1
                    if closed.holdsRepetition { stack[stack.count - 1].holdsRepetition = true }
                    markFirst(closed.alternativeStarts.count == 1 ? closed.alternativeStarts[0] : nil)
                    lastGroup = closed
                case "|":
                    stack[stack.count - 1].atAlternativeStart = true
                    lastGroup = nil
                    i += 1
                case "*", "+", "?", "{":
                    if let problem = quantifier() { return problem }
                default:
                    atom(first: c)
                    i += 1
                }
            }
            return nil
        }

        /// A character, an escape or a class (the caller reads past it): what an alternative starts with, for the
        /// overlap check (nil: not a plain character).
        mutating func atom(first: Unicode.Scalar?) {
            markFirst(first)
            lastGroup = nil
        }

        mutating func markFirst(_ first: Unicode.Scalar?) {
            guard stack[stack.count - 1].atAlternativeStart else { return }
            stack[stack.count - 1].alternativeStarts.append(first.map { Unicode.Scalar(String($0).lowercased()) ?? $0 })
            stack[stack.count - 1].atAlternativeStart = false
        }

        mutating func openGroup() {
            i += 1
            // (?:…), (?i), (?<name>…), lookarounds: skip the group's own syntax.
            if i < s.count, s[i] == "?" {
                i += 1
                while i < s.count, s[i] != ":" && s[i] != ")" && s[i] != "=" && s[i] != "!" && s[i] != ">" { i += 1 }
                if i < s.count, s[i] != ")" { i += 1 }
            }
            stack.append(Group())
            lastGroup = nil
        }

        /// Reads an escape; refuses backreferences.
        mutating func escape() -> String? {
            i += 1
            guard i < s.count else { return nil }
            let e = s[i]
            if ("1"..."9").contains(e) || e == "k" { return "backreferences (\\\(e)…) are not supported in network_patterns" }
            if e == "p" || e == "P" || e == "x" || e == "N" {
                // \p{…}, \x{…}, \N{…}: skip the braces.
                if i + 1 < s.count, s[i + 1] == "{" {
                    while i < s.count, s[i] != "}" { i += 1 }
                }
            }
            i += 1
            return nil
        }

        mutating func skipClass() {
            i += 1
            if i < s.count, s[i] == "^" { i += 1 }
            if i < s.count, s[i] == "]" { i += 1 }
            var depth = 1
            while i < s.count, depth > 0 {
                if s[i] == "\\" {
                    i += 2
                    continue
                }
                if s[i] == "[" { depth += 1 }
                if s[i] == "]" { depth -= 1 }
                i += 1
            }
        }

        /// A quantifier after the last item: a repetition of more than one. A repeated group holding a repetition, or
        /// whose alternatives may start alike, is refused.
        mutating func quantifier() -> String? {
            var repeats = true
            switch s[i] {
            case "?": repeats = false
            case "{":
                var j = i + 1
                var text = ""
                while j < s.count, s[j] != "}" {
                    text.unicodeScalars.append(s[j])
                    j += 1
                }
                guard j < s.count, text.first?.isNumber == true else {
                    atom(first: "{")  // a literal brace
                    i += 1
                    return nil
                }
                let bounds = text.split(separator: ",", omittingEmptySubsequences: false)
                let upper = bounds.count == 1 ? Int(bounds[0]) : Int(bounds[1])
                repeats = bounds.count == 2 && bounds[1].isEmpty || (upper ?? 2) > 1
                i = j
            default: break
            }
            i += 1
            // Lazy or possessive suffixes change the order of tries, not their number.
            if i < s.count, s[i] == "?" || s[i] == "+" { i += 1 }
            if let group = lastGroup, repeats {
                if group.holdsRepetition {
                    return "'\(String(String.UnicodeScalarView(s[..<min(s.count, i)])).suffix(40))': a repeated group holding a repetition "
                        + "(as in (a+)+) can take exponential time; write it without the nesting"
                }
                let literals = group.alternativeStarts.compactMap { $0 }
                if Set(literals).count < literals.count {
                    return "'\(String(String.UnicodeScalarView(s[..<min(s.count, i)])).suffix(40))': a repeated group whose alternatives "
                        + "may start alike (as in (a|ab)+) can take exponential time"
                }
            }
            if repeats { stack[stack.count - 1].holdsRepetition = true }
            lastGroup = nil
            return nil
        }
    }
}
