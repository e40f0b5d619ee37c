/// A store's OpenStreetMap `opening_hours` value, understood for the common subset — weekdays and their ranges and
/// lists, time spans (several, overnight, up to 24:00), `24/7`, `off`/`closed`/`open`/`unknown`, comments, and the
/// `;` (normal), `,` (additional) and `||` (fallback) rules — and evaluated as the `opening-hours` crate evaluates it
/// (the reference of the differential test). Public and school holidays are not known here: a `PH` or `SH` selector
/// matches no day, so `PH off` changes nothing and `Mo-Fr,PH` is Monday to Friday. Anything else (months, weeks,
/// dates, sunrise, open ends, nth weekdays) makes the value one this reader does not understand: `init` returns nil,
/// and the caller treats the store as open.
public struct OpeningHours: Sendable, Hashable {
    public enum State: Sendable, Hashable { case open, closed, unknown }

    enum Operator: Hashable { case normal, additional, fallback }

    struct Rule: Hashable {
        var op: Operator
        /// Bit `d` set: the rule selects weekday `d` (0 = Monday).
        var days: UInt8
        /// Minutes from the selected day's midnight; `end` may pass 1440 (the span runs into the next day). Empty: the
        /// whole day.
        var spans: [ClosedOpen]
        var state: State
        var hasComment: Bool

        func selects(_ weekday: Int) -> Bool { days & (1 << UInt8(weekday)) != 0 }
    }

    struct ClosedOpen: Hashable {
        var start: Int
        var end: Int
    }

    let rules: [Rule]

    /// Nil when the value is empty or outside the subset this reader understands.
    public init?(_ text: String) {
        var parser = OpeningHoursParser(text)
        guard let rules = parser.parse(), !rules.isEmpty else { return nil }
        self.rules = rules
    }

    /// The state on `weekday` (0 = Monday … 6 = Sunday) at `minute` after midnight (0..<1440).
    public func state(weekday: Int, minute: Int) -> State {
        schedule(weekday: weekday).first { $0.start <= minute && minute < $0.end }?.state ?? .closed
    }

    /// The minutes of `weekday` (0 = Monday) at which the store is not closed (open, or `unknown`, which a caller that
    /// ranks by opening hours treats as open): sorted, disjoint ranges within 0..<1440.
    public func notClosedMinutes(weekday: Int) -> [Range<Int>] {
        schedule(weekday: weekday).filter { $0.state != .closed && $0.start < $0.end }.map { $0.start..<$0.end }
    }

    /// A day's spans, as the crate builds them: rule by rule, a normal open or unknown rule that selects the day
    /// replacing what came before, a closed or additional one painting over it, a fallback applying when nothing
    /// before selected the day (or selected it only to close it); spans from the day before that run past midnight
    /// belong to the rule that wrote them.
    func schedule(weekday d: Int) -> [DaySpan] {
        var matched = false
        var current: [DaySpan]?
        for rule in rules {
            let selects = rule.selects(d)
            let own = Self.ruleSchedule(rule, weekday: d)
            switch (rule.op, rule.state) {
            case (.normal, .open), (.normal, .unknown):
                current = selects ? own : (current.flatMap { Self.closedWithoutComments($0) ? nil : $0 } ?? own)
                matched = matched || selects
            case (.additional, _), (.normal, .closed):
                if let c = current, let o = own { current = Self.paint(o, over: c) } else { current = current ?? own }
                matched = matched || selects
            case (.fallback, _):
                if !(matched && !(current.map(Self.closedWithoutComments) ?? true)) {
                    matched = selects
                    current = own
                }
            }
        }
        return current ?? []
    }

    struct DaySpan: Hashable {
        var start: Int
        var end: Int
        var state: State
        var hasComment: Bool
    }

    /// A rule's spans on a day: its own when it selects the day, and what it selected the day before that runs past
    /// midnight; nil when it selects neither day.
    static func ruleSchedule(_ rule: Rule, weekday d: Int) -> [DaySpan]? {
        let whole = rule.spans.isEmpty ? [ClosedOpen(start: 0, end: 1440)] : rule.spans
        func spans(_ ranges: [ClosedOpen]) -> [DaySpan] {
            ranges.filter { $0.start < $0.end }.sorted { $0.start < $1.start }.reduce(into: [DaySpan]()) { out, r in
                if let last = out.last, last.end >= r.start {
                    out[out.count - 1].end = max(last.end, r.end)
                } else {
                    out.append(DaySpan(start: r.start, end: r.end, state: rule.state, hasComment: rule.hasComment))
                }
            }
        }
        let today = rule.selects(d) ? spans(whole.map { ClosedOpen(start: $0.start, end: min($0.end, 1440)) }) : nil
        let spill =
            rule.selects((d + 6) % 7)
            ? spans(whole.filter { $0.end > 1440 }.map { ClosedOpen(start: max($0.start, 1440) - 1440, end: $0.end - 1440) }) : nil
        if let today, let spill { return paint(spill, over: today) }
        return today ?? spill
    }

    static func closedWithoutComments(_ spans: [DaySpan]) -> Bool { spans.allSatisfy { $0.state == .closed && !$0.hasComment } }

    /// `top`'s spans over `bottom`'s: where they overlap, `top` wins.
    static func paint(_ top: [DaySpan], over bottom: [DaySpan]) -> [DaySpan] {
        var out = bottom
        for t in top {
            var next: [DaySpan] = []
            for b in out {
                if b.end <= t.start || b.start >= t.end {
                    next.append(b)
                    continue
                }
                if b.start < t.start { next.append(DaySpan(start: b.start, end: t.start, state: b.state, hasComment: b.hasComment)) }
                if b.end > t.end { next.append(DaySpan(start: t.end, end: b.end, state: b.state, hasComment: b.hasComment)) }
            }
            next.append(t)
            out = next.sorted { $0.start < $1.start }
        }
        return out
    }
}
