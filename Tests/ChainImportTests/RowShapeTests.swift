import ChainImport
import Foundation
import Geo
import LocationStore
import SQLiteStore
import Testing

/// Rows whose shape does not match the header, and values the parser must not read loosely.
@Suite("Row shape and strict values")
struct RowShapeTests {
    /// `40,1` unquoted splits into two fields and shifts the row: it must not be stored as (40, 1).
    @Test func anUnquotedDecimalCommaIsRejectedNotShifted() async throws {
        let t = try TempStore()
        let report = try await t.importText("id,name,lat,lon\n1,A,40,1,-74,2\n2,B,40.112345,-74.112345\n", ImportOptions(network: "acme"))
        #expect(report.totals == ImportCounts(read: 2, inserted: 1, rejected: 1))
        #expect(report.files[0].rejectedByReason == ["field_count": 1])
        #expect(report.files[0].issues.first?.message.contains("6 fields, the header has 4") == true)
        #expect(try t.snapshot().map(\.id) == ["loc_acme_2"])
    }

    @Test func blankFieldsAfterTheLastColumnAreHarmless() async throws {
        let t = try TempStore()
        let report = try await t.importText("id,lat,lon\n1,40.112345,-74.112345,\n2,40.212345,-74.212345, ,\n", ImportOptions(network: "acme"))
        #expect(report.totals == ImportCounts(read: 2, inserted: 2))
    }

    /// Fewer fields: kept when only other columns are missing (their values empty, a warning), rejected when a
    /// coordinate column is among the missing ones.
    @Test func shortRowsAreKeptOnlyWhenTheCoordinatesAreThere() async throws {
        let t = try TempStore()
        let text = "id,lat,lon,name,phone\n1,40.112345,-74.112345,Alpha\n2,40.212345,-74.212345\n3,40.312345\n4,40.412345,-74.412345,Delta,555\n"
        let report = try await t.importText(text, ImportOptions(network: "acme"))
        #expect(report.totals == ImportCounts(read: 4, inserted: 3, rejected: 1, warned: 2))
        #expect(report.files[0].rejectedByReason == ["field_count": 1])
        #expect(report.files[0].warningsByReason == ["field_count": 2])
        let rejection = try #require(report.files[0].issues.first { $0.severity == .rejected })
        #expect(rejection.line == 4 && rejection.message.contains("'lon'"))
        #expect(try t.store.location(id: "loc_acme_1")?.name == "Alpha")
    }

    @Test func hexFloatsInfAndNanAreNotCoordinates() async throws {
        let t = try TempStore()
        let text = "id,lat,lon\n1,0x1p4,-74.1\n2,inf,-74.1\n3,40.1,nan\n4,+40.112345,-7.4112345e1\n5,.5e1,-74.112345\n6,1_0,-74.1\n"
        let report = try await t.importText(text, ImportOptions(network: "acme"))
        #expect(report.files[0].rejectedByReason == ["unparseable_coordinates": 4])
        #expect(try t.snapshot().map(\.id) == ["loc_acme_4", "loc_acme_5"])
        #expect(try t.store.location(id: "loc_acme_4")?.coordinate.longitude == -74.112345)
    }

    @Test func decimalNumberGrammar() {
        for good in ["40", "-74.0060", "+1.5", ".5", "5.", "4.07e1", "-1E-3"] { #expect(DecimalNumber.parse(good) != nil, "\(good)") }
        for bad in ["0x1p4", "inf", "-infinity", "nan", "", "-", ".", "1e", "1.2.3", "4 0", "١٢", "1e400"] {
            #expect(DecimalNumber.parse(bad) == nil, "\(bad)")
        }
        #expect(DecimalNumber.parse("40,7", decimalComma: true) == 40.7)
        #expect(DecimalNumber.parse("0x1,5", decimalComma: true) == nil)
    }

    /// A NUL would cut the value where SQLite stores it (and fail a PostgreSQL COPY): the row is rejected.
    @Test func aNulInAColumnReadRejectsTheRow() async throws {
        let t = try TempStore()
        let text = "id,name,note,lat,lon\n1,Ab\u{0}cd,x,40.112345,-74.112345\n2,Ok,no\u{0}te,40.212345,-74.212345\n"
        let report = try await t.importText(text, ImportOptions(network: "acme"))
        #expect(report.totals == ImportCounts(read: 2, inserted: 1, rejected: 1))
        #expect(report.files[0].rejectedByReason == ["nul_byte": 1])
        #expect(report.files[0].issues.first?.message.contains("'name'") == true)
        #expect(try t.snapshot().map(\.name) == ["Ok"])  // a NUL in a column not imported does no harm
    }

    @Test func controlCharactersInMessagesAreWrittenOut() async throws {
        let t = try TempStore()
        let report = try await t.importText("id,lat,lon\n1,\u{1B}[2J\u{1B}]0;pwned\u{7},-74.1\n2,40.1\u{202E},x\n", ImportOptions(network: "acme"))
        let messages = report.files[0].issues.map(\.message)
        #expect(messages.count == 2)
        for message in messages {
            #expect(!message.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" }, "\(message.debugDescription)")
        }
        #expect(messages[0].contains("\\u{1B}[2J"))
        #expect("a\u{1B}b\nc\u{9B}d\u{2067}".forMessage() == "a\\u{1B}b\\nc\\u{9B}d\\u{2067}")
        #expect("line\nbreak".forMessage(keepingLineBreaks: true) == "line\nbreak")
        #expect(String(repeating: "é", count: 100).forMessage(limit: 10) == String(repeating: "é", count: 10) + "…")
    }
}
