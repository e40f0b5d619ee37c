import Foundation
import LocationStore

/// Opening hours spread over columns per day or group of days, as chains publish them (Target's `BeginTime.MF`,
/// `ThruTime.MF`, `Is24Hours.MF`, `IsOpen.MF`, then `.Sat` and `.Sun`; elsewhere `monday_open` / `monday_close`,
/// `Sat Opens` / `Sat Closes`), read into one OpenStreetMap `opening_hours` value, so that they rank like an OSM
/// store's: `Mo-Fr 08:00-22:00, Sa 08:00-23:00, Su 08:00-22:00`.
///
/// A header takes part when its words (split at punctuation and spaces) are one day word and one field word, nothing
/// else: `Summary.MF` and `Store.StoreDistrictID` do not.
struct WeeklyHoursColumns: Sendable, Equatable {
    enum Field: Hashable, Sendable { case opens, closes, allDay, isOpen }

    /// One day or group of days with its columns, in week order.
    struct DayGroup: Sendable, Equatable {
        /// Bit d set: weekday d (0 = Monday).
        var days: UInt8
        var columns: [Field: Int]
    }

    let groups: [DayGroup]

    /// The columns of each field, for the report: `BeginTime.MF + ThruTime.MF + …`.
    func described(headers: [String]) -> String {
        groups.flatMap { g in [Field.opens, .closes, .allDay, .isOpen].compactMap { g.columns[$0].map { headers[$0] } } }
            .joined(separator: " + ")
    }

    /// The groups of a header, when at least one day group has both an opening and a closing time column (or an
    /// all-day one) and no day is named by two groups.
    init?(headers: [String]) {
        var byDays: [UInt8: [Field: Int]] = [:]
        for (i, header) in headers.enumerated() {
            guard let (days, field) = Self.read(header), byDays[days]?[field] == nil else { continue }
            byDays[days, default: [:]][field] = i
        }
        let usable = byDays.filter { _, c in (c[.opens] != nil && c[.closes] != nil) || c[.allDay] != nil }
        var seen: UInt8 = 0
        for days in usable.keys {
            guard seen & days == 0 else { return nil }
            seen |= days
        }
        guard !usable.isEmpty else { return nil }
        groups = usable.map { DayGroup(days: $0.key, columns: $0.value) }.sorted { $0.days.trailingZeroBitCount < $1.days.trailingZeroBitCount }
    }

    /// The `opening_hours` value of a row, from each group's values (`value(column)`, nil when empty); nil when no
    /// group has hours that read. A group without readable hours is `unknown` (ranked as open), not left out.
    ///
    /// The groups are joined as additional rules (`, `): a normal rule (`; `) for a day would replace what the day
    /// before's hours past midnight put on it. Closed groups are left out, for the same reason (`Sa off` would close
    /// Friday night's hours after midnight), since a day no rule names is closed anyway.
    func openingHours(_ value: (Int) -> String?) -> String? {
        var rules: [String] = []
        var anyKnown = false
        for g in groups {
            let selector = Self.selector(g.days)
            switch Self.hours(of: g, value) {
            case .closed:
                anyKnown = true
            case .span(let span):
                anyKnown = true
                rules.append("\(selector) \(span)")
            case .unknown:
                rules.append("\(selector) unknown")
            }
        }
        guard anyKnown else { return nil }
        return rules.isEmpty ? "off" : rules.joined(separator: ", ")
    }

    enum GroupHours: Equatable {
        case closed, unknown
        case span(String)
    }

    /// One day group's hours: closed (IsOpen false, or `Closed` where a time should be), all day, a span, or unknown
    /// (nothing readable: empty, `NA`).
    static func hours(of g: DayGroup, _ value: (Int) -> String?) -> GroupHours {
        let opensText = g.columns[.opens].flatMap(value)
        let closesText = g.columns[.closes].flatMap(value)
        if let open = g.columns[.isOpen].flatMap(value).flatMap(boolean), !open { return .closed }
        if [opensText, closesText].contains(where: { $0.map(saysClosed) ?? false }) { return .closed }
        if let allDay = g.columns[.allDay].flatMap(value).flatMap(boolean), allDay { return .span("00:00-24:00") }
        guard let opens = opensText.flatMap(minutes), let closes = closesText.flatMap(minutes) else { return .unknown }
        // Closing at midnight is 24:00; at the opening time, open all day; before it, past midnight, which OSM writes
        // as a span that wraps (`18:00-02:00`).
        return .span(closes == opens ? "00:00-24:00" : "\(clock(opens))-\(clock(closes == 0 ? 1440 : closes))")
    }

    static func saysClosed(_ text: String) -> Bool {
        ["closed", "close", "off", "-", "—", "–", "x"].contains(text.lowercased().trimmingCharacters(in: .whitespaces))
    }

    static let weekdayNames = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]

    /// `Mo-Fr`, `Sa`, `Mo,We`: the days of a bit set in OSM's selector syntax.
    static func selector(_ days: UInt8) -> String {
        var parts: [String] = []
        var d = 0
        while d < 7 {
            guard days & (1 << d) != 0 else {
                d += 1
                continue
            }
            var e = d
            while e + 1 < 7 && days & (1 << (e + 1)) != 0 { e += 1 }
            parts.append(e == d ? weekdayNames[d] : e == d + 1 ? "\(weekdayNames[d]),\(weekdayNames[e])" : "\(weekdayNames[d])-\(weekdayNames[e])")
            d = e + 1
        }
        return parts.joined(separator: ",")
    }

    static func clock(_ minutes: Int) -> String {
        let h = minutes / 60
        let m = minutes % 60
        return (h < 10 ? "0\(h)" : "\(h)") + ":" + (m < 10 ? "0\(m)" : "\(m)")
    }

    /// `8:00:00`, `08:00`, `8:00 a.m.`, `10 PM`, `2200`, `24:00` → minutes after midnight.
    static func minutes(_ text: String) -> Int? {
        let lower = text.lowercased().filter { $0 != "." && $0 != " " }
        var body = Substring(lower)
        var meridiem: Int?
        if body.hasSuffix("am") || body.hasSuffix("pm") {
            meridiem = body.hasSuffix("pm") ? 12 : 0
            body = body.dropLast(2)
        }
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ":") }) else { return nil }
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        var hour: Int
        var minute = 0
        if parts.count == 1, body.count == 4, let hhmm = Int(body) {
            hour = hhmm / 100
            minute = hhmm % 100
        } else {
            guard (1...3).contains(parts.count), let h = Int(parts[0]), parts[0].count <= 2 else { return nil }
            hour = h
            if parts.count >= 2 {
                guard parts[1].count == 2, let m = Int(parts[1]) else { return nil }
                minute = m
            }
            if parts.count == 3 { guard parts[2].count == 2, let s = Int(parts[2]), s < 60 else { return nil } }
        }
        guard minute < 60, hour <= 24, hour < 24 || minute == 0 else { return nil }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + meridiem
        }
        return hour * 60 + minute
    }

    static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "y", "1", "t": true
        case "false", "no", "n", "0", "f": false
        default: nil
        }
    }

    /// A header's day group and field, when its words are exactly one of each.
    static func read(_ header: String) -> (days: UInt8, field: Field)? {
        var days: UInt8?
        var field: Field?
        for word in words(header) {
            if let d = dayWords[word], days == nil {
                days = d
            } else if let f = fieldWords[word], field == nil {
                field = f
            } else {
                return nil
            }
        }
        guard let days, let field else { return nil }
        return (days, field)
    }

    /// Lower-cased words, split at anything not a letter or digit: `BeginTime.MF` → begintime, mf.
    static func words(_ header: String) -> [String] {
        header.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map { $0.lowercased() }
    }

    static let dayWords: [String: UInt8] = {
        var words: [String: UInt8] = [:]
        let names = [
            ["mo", "mon", "monday"], ["tu", "tue", "tues", "tuesday"], ["we", "wed", "wednesday"],
            ["th", "thu", "thur", "thurs", "thursday"], ["fr", "fri", "friday"], ["sa", "sat", "saturday"], ["su", "sun", "sunday"],
        ]
        for (d, spellings) in names.enumerated() { for s in spellings { words[s] = 1 << d } }
        for s in ["mf", "mofr", "monfri", "weekday", "weekdays"] { words[s] = 0b001_1111 }
        for s in ["weekend", "weekends", "sasu", "satsun"] { words[s] = 0b110_0000 }
        return words
    }()

    static let fieldWords: [String: Field] = [
        "begintime": .opens, "open": .opens, "opens": .opens, "opentime": .opens, "opening": .opens, "start": .opens,
        "starttime": .opens, "from": .opens,
        "thrutime": .closes, "close": .closes, "closes": .closes, "closetime": .closes, "closing": .closes, "end": .closes,
        "endtime": .closes, "until": .closes, "to": .closes,
        "is24hours": .allDay, "open24hours": .allDay, "24hours": .allDay, "allday": .allDay,
        "isopen": .isOpen, "openday": .isOpen,
    ]
}
