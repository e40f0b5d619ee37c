/// Fast, allocation-free timestamp parsing for trace files (DateFormatter is too slow for millions of rows
/// and too lenient about zones).
package enum TraceTime {
    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Parses `YYYY-MM-DD[T| ]HH:MM[:SS[.fraction]][Z|±HH[[:]MM]]` (also `/` as the date separator).
    /// A time without a zone is read as UTC (`assumedUTC` is set). Returns seconds since 1970.
    package static func parseISO(_ text: Substring, assumedUTC: inout Bool) -> Double? {
        var u = Array(text.utf8)
        while let f = u.first, f == 0x20 || f == 0x22 { u.removeFirst() }
        while let l = u.last, l == 0x20 || l == 0x22 || l == 0x0D { u.removeLast() }
        guard u.count >= 16 else { return nil }
        func num(_ a: Int, _ b: Int) -> Int? {
            var v = 0
            for i in a..<b {
                let c = u[i]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard let year = num(0, 4), u[4] == 0x2D || u[4] == 0x2F, let month = num(5, 7), u[7] == u[4], let day = num(8, 10),
            u[10] == 0x54 || u[10] == 0x20 || u[10] == 0x74, let hour = num(11, 13), u[13] == 0x3A, let minute = num(14, 16),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60
        else { return nil }
        var i = 16
        var seconds = 0.0
        if i < u.count, u[i] == 0x3A {
            guard i + 3 <= u.count, let s = num(i + 1, i + 3), s <= 60 else { return nil }
            seconds = Double(s)
            i += 3
            if i < u.count, u[i] == 0x2E || u[i] == 0x2C {
                i += 1
                var scale = 0.1
                while i < u.count, u[i] >= 48, u[i] <= 57 {
                    seconds += Double(u[i] - 48) * scale
                    scale /= 10
                    i += 1
                }
            }
        }
        var offset = 0
        if i == u.count {
            assumedUTC = true
        } else if u[i] == 0x5A || u[i] == 0x7A {
            guard i + 1 == u.count else { return nil }
        } else if u[i] == 0x2B || u[i] == 0x2D {
            let sign = u[i] == 0x2B ? 1 : -1
            let rest = u.count - i - 1
            guard rest >= 2, let oh = num(i + 1, i + 3) else { return nil }
            var om = 0
            if rest == 5, u[i + 3] == 0x3A, let m = num(i + 4, i + 6) {
                om = m
            } else if rest == 4, let m = num(i + 3, i + 5) {
                om = m
            } else if rest != 2 {
                return nil
            }
            offset = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 - offset) + seconds
    }

    /// As `parseISO(_:assumedUTC:)`, ignoring whether a zone was present.
    package static func parseISO(_ text: Substring) -> Double? {
        var ignored = false
        return parseISO(text, assumedUTC: &ignored)
    }

    /// `2008-10-23T02:53:04Z` (whole seconds; fractions are kept when present).
    package static func format(_ t: Double) -> String {
        // Beyond ±3 million years a time is not a date (and not an Int of seconds): say what it is.
        guard t.isFinite, abs(t) < 1e14 else { return "\(t) s" }
        let whole = t.rounded(.down)
        let secs = Int(whole)
        var days = secs / 86_400
        var rem = secs % 86_400
        if rem < 0 {
            rem += 86_400
            days -= 1
        }
        let (y, m, d) = civilFromDays(days)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var text = "\(y)-\(two(m))-\(two(d))T\(two(rem / 3600)):\(two(rem % 3600 / 60)):\(two(rem % 60))"
        let frac = t - whole
        if frac >= 0.0005 {
            let ms = Int((frac * 1000).rounded())
            if ms < 1000 { text += "." + String(String(ms + 1000).dropFirst()) }
        }
        return text + "Z"
    }

    static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }
}
