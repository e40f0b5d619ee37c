import Foundation
import LocationStore
import TestSupport
import Testing

@testable import ChainImport

/// Opening hours in columns per day group (Target's), read into one OpenStreetMap `opening_hours` value.
@Suite("Opening hours from day columns", .cpuHeavy) struct WeeklyHoursColumnsTests {
    @Test("Target's header: three day groups, four fields each; summaries and other columns left alone")
    func targetHeader() throws {
        var headers = ["ID", "Name", "Summary.MF", "IsDaylightSavingsTimeRecognized", "LocationMilestones.OpenDate", "TimeZone.TimeZoneCode"]
        for group in ["MF", "Sat", "Sun"] { headers += ["BeginTime.\(group)", "Is24Hours.\(group)", "IsOpen.\(group)", "ThruTime.\(group)"] }
        let columns = try #require(WeeklyHoursColumns(headers: headers))
        #expect(columns.groups.map(\.days) == [0b001_1111, 0b010_0000, 0b100_0000])
        #expect(columns.groups[0].columns == [.opens: 6, .allDay: 7, .isOpen: 8, .closes: 9])
        #expect(WeeklyHoursColumns(headers: ["ID", "Summary.MF", "Summary.Sat", "Store Open Date"]) == nil)
        // Two groups naming one day cannot both hold.
        #expect(WeeklyHoursColumns(headers: ["Sat Open", "Sat Close", "Weekend Open", "Weekend Close"]) == nil)
    }

    @Test("values: times in several spellings, overnight, closed days, all day, unknown")
    func values() throws {
        let headers = ["monday_open", "monday_close", "tue opens", "tue closes", "Sat Open", "Sat Close", "Sat IsOpen", "sun_24hours"]
        let columns = try #require(WeeklyHoursColumns(headers: headers))
        func hours(_ row: [String]) -> String? { columns.openingHours { row[$0].isEmpty ? nil : row[$0] } }
        #expect(
            hours(["8:00:00", "22:00:00", "8:00 a.m.", "10:00 p.m.", "10", "2pm", "TRUE", "TRUE"])
                == "Mo 08:00-22:00, Tu 08:00-22:00, Sa 10:00-14:00, Su 00:00-24:00")
        let overnight = hours(["1800", "0200", "12 PM", "12:00 a.m.", "", "", "FALSE", "false"])
        #expect(overnight == "Mo 18:00-02:00, Tu 12:00-24:00, Su unknown")
        #expect(hours(["NA", "", "", "", "", "", "", ""]) == nil)
        #expect(hours(["9:00", "9:00", "", "", "", "", "", ""]) == "Mo 00:00-24:00, Tu unknown, Sa unknown, Su unknown")
        #expect(hours(["25:00", "22:00", "7:61", "8", "13 pm", "9", "", ""]) == nil)
        #expect(hours(["-1:00", "22:00", "+8", "9", "", "", "", ""]) == nil)
        // Closed where a time should be; a 24-hours flag that is false says nothing about the day's hours.
        #expect(hours(["Closed", "Closed", "8:00", "Closed", "", "", "false", "false"]) == "Su unknown")
        let monday = try #require(WeeklyHoursColumns(headers: ["Mon Open", "Mon Close"]))
        #expect(monday.openingHours { ["closed", "—"][$0] } == "off")
        // Monday's hours past midnight stay open on Tuesday, whose own hours are added; Saturday is closed.
        let value = try #require(overnight)
        let week = try #require(OpeningHours(value))
        #expect(week.state(weekday: 1, minute: 60) == .open && week.state(weekday: 1, minute: 150) == .closed)
        #expect(week.state(weekday: 1, minute: 13 * 60) == .open && week.state(weekday: 0, minute: 19 * 60) == .open)
        #expect(week.state(weekday: 5, minute: 12 * 60) == .closed && week.state(weekday: 6, minute: 12 * 60) == .unknown)
        #expect(OpeningHours("off") != nil)
        #expect(WeeklyHoursColumns.selector(0b101_1011) == "Mo,Tu,Th,Fr,Su")
        #expect(WeeklyHoursColumns.selector(0b111_1111) == "Mo-Su")
    }

    /// Each store's hours, read from BeginTime/ThruTime, against the file's own `Summary` text ("8:00 a.m.-10:00 p.m.")
    /// read by a separate rule here, every quarter hour of the week.
    @Test("every Target store: open when its summary says so", .needsSharedDatasets)
    func targetAgainstSummaries() async throws {
        let path = try SharedDatasets.path("chain-target-us/target.csv")
        let t = try TempStore()
        let report = try await t.importFiles([path], ImportOptions(network: "target"))
        #expect(report.files[0].columns["opening_hours"]?.hasPrefix("BeginTime.MF + ThruTime.MF") == true)
        #expect(report.files[0].warningsByReason["unparsed_opening_hours"] == nil)
        let stored = Dictionary(uniqueKeysWithValues: try t.snapshot().map { ($0.id, $0.openingHours) })
        let records = try CSVTokenizer.records(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let header = records[0].strings
        let id = try #require(header.firstIndex(of: "ID"))
        let summaries = try ["MF", "Sat", "Sun"].map { try #require(header.firstIndex(of: "Summary.\($0)")) }
        var checked = 0
        for record in records.dropFirst() {
            let text = try #require(stored["loc_target_\(record.string(id))"] ?? nil)
            let hours = try #require(OpeningHours(text), "\(text)")
            for day in 0..<7 {
                let summary = record.string(summaries[day < 5 ? 0 : day - 4])
                guard let span = Self.summarySpan(summary) else {
                    #expect(summary.isEmpty, "unread summary '\(summary)'")
                    #expect(hours.state(weekday: day, minute: 720) == .unknown)
                    continue
                }
                for minute in stride(from: 0, to: 1440, by: 15) {
                    let open = span.contains(minute)
                    #expect((hours.state(weekday: day, minute: minute) == .open) == open, "\(text) day \(day) minute \(minute)")
                }
                checked += 1
            }
        }
        #expect(checked > 1_829 * 7 - 10)
    }

    /// "8:00 a.m.-10:00 p.m." → 480..<1320; an end of 12:00 a.m. is midnight, the day's end.
    static func summarySpan(_ s: String) -> Range<Int>? {
        let parts = s.components(separatedBy: "-")
        guard parts.count == 2 else { return nil }
        func minutes(_ t: String) -> Int? {
            let words = t.split(separator: " ")
            guard words.count == 2 else { return nil }
            let hm = words[0].split(separator: ":").compactMap { Int($0) }
            guard hm.count == 2 else { return nil }
            let pm = words[1] == "p.m."
            return ((hm[0] % 12) + (pm ? 12 : 0)) * 60 + hm[1]
        }
        guard let a = minutes(parts[0]), var b = minutes(parts[1]) else { return nil }
        if b <= a { b += 1440 }
        return a..<min(b, 1440)
    }
}
