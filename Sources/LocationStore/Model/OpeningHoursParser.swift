/// Reads an `opening_hours` value into rules (`OpeningHours`); nil for anything outside the subset it understands.
struct OpeningHoursParser {
    enum Token: Equatable {
        case weekday(Int)
        /// `PH` or `SH`: a holiday this reader cannot place, so it selects no day.
        case holiday
        case time(Int)
        case dash, semicolon, fallback
        /// A comma, and whether white space follows it: `Sa, Su` is two rules where `Sa,Su` is one list of days.
        case comma(spaced: Bool)
        case always
        case modifier(OpeningHours.State)
        case comment
    }

    private let scalars: [Unicode.Scalar]
    private var tokens: [Token] = []
    private var index = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    mutating func parse() -> [OpeningHours.Rule]? {
        guard let tokens = Self.tokenize(scalars), !tokens.isEmpty else { return nil }
        self.tokens = tokens
        var rules: [OpeningHours.Rule] = []
        var op = OpeningHours.Operator.normal
        while true {
            guard var rule = parseRule() else { return nil }
            rule.op = op
            rules.append(rule)
            guard let next = peek() else { return rules }
            index += 1
            switch next {
            case .semicolon: op = .normal
            case .comma: op = .additional
            case .fallback: op = .fallback
            default: return nil
            }
        }
    }

    private func peek(_ offset: Int = 0) -> Token? { index + offset < tokens.count ? tokens[index + offset] : nil }

    private mutating func parseRule() -> OpeningHours.Rule? {
        var rule = OpeningHours.Rule(op: .normal, days: 0x7F, spans: [], state: .open, hasComment: false)
        var parts = 0
        if peek() == .always {
            index += 1
            rule.spans = [OpeningHours.ClosedOpen(start: 0, end: 1440)]
            parts += 1
        } else {
            if let days = parseDays() {
                rule.days = days
                parts += 1
            }
            if case .time = peek() {
                guard let spans = parseSpans() else { return nil }
                rule.spans = spans
                parts += 1
            }
        }
        if case .modifier(let state)? = peek() {
            index += 1
            rule.state = state
            parts += 1
        }
        if peek() == .comment {
            index += 1
            rule.hasComment = true
            parts += 1
        }
        return parts > 0 ? rule : nil
    }

    /// Weekdays, ranges (`Sa-Mo` wraps) and holidays, comma-separated; nil when the rule starts otherwise.
    private mutating func parseDays() -> UInt8? {
        var days: UInt8 = 0
        var any = false
        repeat {
            switch peek() {
            case .weekday(let first)?:
                index += 1
                var last = first
                if peek() == .dash, case .weekday(let end)? = peek(1) {
                    index += 2
                    last = end
                }
                var d = first
                while true {
                    days |= 1 << UInt8(d)
                    if d == last { break }
                    d = (d + 1) % 7
                }
            case .holiday?: index += 1
            default: return any ? days : nil
            }
            any = true
            guard peek() == .comma(spaced: false), let next = peek(1), next == .holiday || { if case .weekday = next { true } else { false } }()
            else { break }
            index += 1
        } while true
        return days
    }

    /// Time spans, comma-separated; an end at or before the start runs into the next day.
    private mutating func parseSpans() -> [OpeningHours.ClosedOpen]? {
        var spans: [OpeningHours.ClosedOpen] = []
        repeat {
            guard case .time(let start)? = peek(), peek(1) == .dash, case .time(var end)? = peek(2), start < 1440 else { return nil }
            index += 3
            if end <= start { end += 1440 }
            spans.append(OpeningHours.ClosedOpen(start: start, end: end))
            guard case .comma? = peek(), case .time? = peek(1) else { break }
            index += 1
        } while true
        return spans
    }

    // MARK: tokens

    static let weekdays = ["mo", "tu", "we", "th", "fr", "sa", "su"]

    static func tokenize(_ s: [Unicode.Scalar]) -> [Token]? {
        var out: [Token] = []
        var i = 0
        func isDigit(_ c: Unicode.Scalar) -> Bool { c >= "0" && c <= "9" }
        func isLetter(_ c: Unicode.Scalar) -> Bool { (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") }
        while i < s.count {
            let c = s[i]
            if c == " " || c == "\t" || c == "\n" || c == "\r" {
                i += 1
            } else if isDigit(c) {
                // H:MM or HH:MM; "24/7" is a token of its own. A time written onto a weekday ("Fr11:00") is refused,
                // as the crate refuses it.
                if i > 0 && isLetter(s[i - 1]) { return nil }
                var j = i
                while j < s.count && isDigit(s[j]) { j += 1 }
                let digits = s[i..<j].reduce(0) { $0 * 10 + Int($1.value - 48) }
                if j - i == 2 && digits == 24 && j + 1 < s.count && s[j] == "/" && s[j + 1] == "7" {
                    out.append(.always)
                    i = j + 2
                    continue
                }
                guard j - i <= 2, j + 2 < s.count, s[j] == ":", isDigit(s[j + 1]), isDigit(s[j + 2]) else { return nil }
                let minutes = Int(s[j + 1].value - 48) * 10 + Int(s[j + 2].value - 48)
                guard minutes < 60, digits * 60 + minutes <= 1440 else { return nil }
                out.append(.time(digits * 60 + minutes))
                i = j + 3
            } else if isLetter(c) {
                var j = i
                while j < s.count && isLetter(s[j]) { j += 1 }
                let word = String(String.UnicodeScalarView(s[i..<j])).lowercased()
                if let d = weekdays.firstIndex(of: word) {
                    out.append(.weekday(d))
                } else {
                    switch word {
                    case "ph", "sh": out.append(.holiday)
                    case "open": out.append(.modifier(.open))
                    case "closed", "off": out.append(.modifier(.closed))
                    case "unknown": out.append(.modifier(.unknown))
                    default: return nil  // months, "week", "sunrise", "easter", …
                    }
                }
                i = j
            } else if c == "\"" {
                guard let close = s[(i + 1)...].firstIndex(of: "\"") else { return nil }
                out.append(.comment)
                i = close + 1
            } else if c == "|" && i + 1 < s.count && s[i + 1] == "|" {
                out.append(.fallback)
                i += 2
            } else {
                switch c {
                case "-": out.append(.dash)
                case ",":
                    let next = i + 1 < s.count ? s[i + 1] : "x"
                    out.append(.comma(spaced: next == " " || next == "\t"))
                case ";": out.append(.semicolon)
                default: return nil  // ":", "+", "[", "/", …
                }
                i += 1
            }
        }
        return out
    }
}
