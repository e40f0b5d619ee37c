import LocationStore

/// The opening hours of an index's locations, compiled once at build time so that a selection asks "is this store
/// closed for the next N minutes?" with a few word operations.
///
/// Locations share values (a chain writes one `opening_hours` for most of its stores), so each distinct value is
/// parsed once and each distinct week once: a week is 10,080 bits, one per minute from Monday 00:00, set where the
/// store is not closed (open, or `unknown`, which ranks as open). A location holds the number of its value; 0 is a
/// location without hours or with a value `OpeningHours` does not understand, which is never demoted.
struct OpeningHoursTable: Sendable {
    static let minutesPerWeek = 10_080
    static let wordsPerWeek = (minutesPerWeek + 63) / 64

    /// Value number per location (index = location number); empty when no location has hours that were understood.
    let valueOfLocation: [UInt32]
    /// The text of each value number (0: none).
    let texts: [String]
    /// The week of each value number (0: none).
    let weekOfValue: [UInt32]
    /// `wordsPerWeek` words per distinct week, bit m of a week set where minute m is not closed.
    let weeks: [UInt64]

    var isEmpty: Bool { valueOfLocation.isEmpty }

    var byteCount: Int { valueOfLocation.count * 4 + weeks.count * 8 + weekOfValue.count * 4 }

    static let empty = OpeningHoursTable(valueOfLocation: [], texts: [""], weekOfValue: [0], weeks: [])

    /// The stored text of a location's hours, when it has a value this table understood.
    func text(of location: Int) -> String? {
        guard !valueOfLocation.isEmpty else { return nil }
        let v = Int(valueOfLocation[location])
        return v == 0 ? nil : texts[v]
    }

    /// Whether `location` is closed at every minute of [minuteOfWeek, minuteOfWeek + minutes), the week wrapping
    /// around. A location without hours is never closed.
    @inline(__always)
    func isClosed(_ location: UInt32, from minuteOfWeek: Int, forMinutes minutes: Int) -> Bool {
        let v = Int(valueOfLocation[Int(location)])
        if v == 0 { return false }
        return weeks.withUnsafeBufferPointer { all in
            let base = Int(weekOfValue[v]) * Self.wordsPerWeek
            return !Self.anySet(all, base: base, from: minuteOfWeek, count: minutes)
        }
    }

    /// Whether any bit of [from, from + count) (wrapping at the week's end) is set in the week at `base`.
    @inline(__always)
    static func anySet(_ words: UnsafeBufferPointer<UInt64>, base: Int, from: Int, count: Int) -> Bool {
        var m = from
        var left = min(count, minutesPerWeek)
        while left > 0 {
            let inWord = m & 63
            let take = min(64 - inWord, left, minutesPerWeek - m)
            let mask = take == 64 ? UInt64.max : ((UInt64(1) << UInt64(take)) - 1) << UInt64(inWord)
            if words[base + m >> 6] & mask != 0 { return true }
            left -= take
            m += take
            if m == minutesPerWeek { m = 0 }
        }
        return false
    }
}

extension OpeningHoursTable {
    /// Numbers the distinct values of an index build, as the locations come.
    struct Builder {
        private var valueNumber: [String: UInt32] = [:]
        private var weekNumber: [[UInt64]: UInt32] = [:]
        private(set) var texts: [String] = [""]
        private(set) var weekOfValue: [UInt32] = [0]
        private(set) var weeks: [UInt64] = []
        /// Per location, in the order added.
        private(set) var values: [UInt32] = []
        private var anyHours = false

        init() {}

        /// A builder that knows a table's values and weeks (and numbers them as it did), with no location yet.
        init(seed table: OpeningHoursTable) {
            guard !table.isEmpty else { return }
            texts = table.texts
            weekOfValue = table.weekOfValue
            weeks = table.weeks
            for (v, text) in table.texts.enumerated() where v > 0 { valueNumber[text] = UInt32(v) }
            let words = OpeningHoursTable.wordsPerWeek
            for w in 0..<table.weeks.count / words { weekNumber[Array(table.weeks[w * words..<(w + 1) * words])] = UInt32(w) }
            anyHours = true
        }

        var hasHours: Bool { anyHours }

        mutating func add(_ text: String?) {
            values.append(number(of: text))
        }

        private mutating func number(of text: String?) -> UInt32 {
            guard let text, !text.isEmpty else { return 0 }
            if let known = valueNumber[text] { return known }
            // A value OpeningHours does not understand is remembered as "none" so that it is parsed once.
            guard let hours = OpeningHours(text) else {
                valueNumber[text] = 0
                return 0
            }
            let week = Self.week(of: hours)
            let w: UInt32
            if let known = weekNumber[week] {
                w = known
            } else {
                w = UInt32(weekNumber.count)
                weekNumber[week] = w
                weeks.append(contentsOf: week)
            }
            texts.append(text)
            weekOfValue.append(w)
            anyHours = true
            let v = UInt32(texts.count - 1)
            valueNumber[text] = v
            return v
        }

        /// Bit m set where minute m of the week (from Monday 00:00) is not closed.
        static func week(of hours: OpeningHours) -> [UInt64] {
            var words = [UInt64](repeating: 0, count: OpeningHoursTable.wordsPerWeek)
            for day in 0..<7 {
                for range in hours.notClosedMinutes(weekday: day) {
                    for m in range.clamped(to: 0..<1440) {
                        let bit = day * 1440 + m
                        words[bit >> 6] |= UInt64(1) << UInt64(bit & 63)
                    }
                }
            }
            return words
        }

        /// The table with locations renumbered: `order[g]` is the position (in the order added) of location g.
        func finish(order: [UInt32]) -> OpeningHoursTable {
            guard anyHours else { return .empty }
            return OpeningHoursTable(
                valueOfLocation: order.map { values[Int($0)] }, texts: texts, weekOfValue: weekOfValue, weeks: weeks)
        }
    }
}

extension OpeningHoursTable {
    /// This table with `hours` for locations numbered from `count` on (an overlay's), the values it knows kept.
    func appending(_ hours: [String?], after count: Int) -> OpeningHoursTable {
        var builder = Builder(seed: self)
        for h in hours { builder.add(h) }
        guard builder.hasHours else { return .empty }
        let known = isEmpty ? [UInt32](repeating: 0, count: count) : valueOfLocation
        return OpeningHoursTable(
            valueOfLocation: known + builder.values, texts: builder.texts, weekOfValue: builder.weekOfValue, weeks: builder.weeks)
    }
}
