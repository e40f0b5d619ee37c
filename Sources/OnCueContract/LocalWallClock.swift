/// What the phone's clock shows, read from `local_time`: the weekday and the minute of the day. The offset only says
/// which zone that clock is in, so it is checked and then dropped: opening hours and time-of-day boosts are local.
public struct LocalWallClock: Sendable, Hashable {
    /// 0 = Monday … 6 = Sunday, as OpenStreetMap's `opening_hours` counts.
    public var weekday: Int
    /// Minutes after midnight, 0..<1440.
    public var minuteOfDay: Int

    public init(weekday: Int, minuteOfDay: Int) {
        self.weekday = ((weekday % 7) + 7) % 7
        self.minuteOfDay = min(max(minuteOfDay, 0), 1439)
    }

    public var hour: Int { minuteOfDay / 60 }
    /// Minutes after Monday 00:00, 0..<10080.
    public var minuteOfWeek: Int { weekday * 1440 + minuteOfDay }

    /// Reads an RFC 3339 date-time (what OpenAPI's `format: date-time` means), as the phone's clock shows it:
    /// `yyyy-mm-ddThh:mm:ss[.f…](Z|±hh:mm)`, with a day within its month (February 29 in Gregorian leap years, year
    /// 0000 included), hours 00–23, minutes and seconds 00–59 and an offset within ±23:59. Anything else is nil, so
    /// that the document and the server agree.
    public init?(rfc3339 text: String) {
        let u = Array(text.utf8)
        guard u.count >= 20 else { return nil }
        func digits(_ range: Range<Int>) -> Int? {
            var v = 0
            for i in range {
                guard u[i] >= 48 && u[i] <= 57 else { return nil }
                v = v * 10 + Int(u[i] - 48)
            }
            return v
        }
        func byte(_ i: Int, _ c: Character) -> Bool { u[i] == c.asciiValue! }
        guard let year = digits(0..<4), byte(4, "-"), let month = digits(5..<7), byte(7, "-"), let day = digits(8..<10),
            byte(10, "T") || byte(10, "t"), let hour = digits(11..<13), byte(13, ":"), let minute = digits(14..<16),
            byte(16, ":"), let second = digits(17..<19),
            (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year), hour < 24, minute < 60, second < 60
        else { return nil }
        var i = 19
        if byte(i, ".") {
            i += 1
            let start = i
            while i < u.count, u[i] >= 48, u[i] <= 57 { i += 1 }
            guard i > start else { return nil }
        }
        guard i < u.count else { return nil }
        if byte(i, "Z") || byte(i, "z") {
            guard i + 1 == u.count else { return nil }
        } else {
            guard byte(i, "+") || byte(i, "-"), i + 6 == u.count, let offsetHours = digits(i + 1..<i + 3), byte(i + 3, ":"),
                let offsetMinutes = digits(i + 4..<i + 6), offsetHours < 24, offsetMinutes < 60
            else { return nil }
        }
        self.init(weekday: Self.weekday(year: year, month: month, day: day), minuteOfDay: hour * 60 + minute)
    }

    /// Days of a month in the proleptic Gregorian calendar, as RFC 3339 counts them.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The weekday (0 = Monday) of a proleptic Gregorian date: days since 1970-01-01, a Thursday, by Howard Hinnant's
    /// `days_from_civil` (eras of 400 years, each with the same 146,097 days, so that year 0000 is counted right).
    static func weekday(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return ((days + 3) % 7 + 7) % 7
    }
}
