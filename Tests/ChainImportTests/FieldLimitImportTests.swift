import ChainImport
import Foundation
import LocationStore
import SQLiteStore
import Testing

/// A file puts no more text into the store than the admin API may: a value over its field's `FieldLimits` rejects the
/// row (`field_too_long`), counted in Unicode scalars as the limits are.
@Suite("Field length limits in the import")
struct FieldLimitImportTests {
    static func long(_ n: Int, _ c: Character = "a") -> String { String(repeating: c, count: n) }

    @Test(arguments: [
        ("id", FieldLimits.locationId), ("name", FieldLimits.locationName), ("address", FieldLimits.address),
        ("city", FieldLimits.place), ("state", FieldLimits.place), ("zip", FieldLimits.place),
        ("country", FieldLimits.place),
    ])
    func aValueOverItsLimitRejectsTheRow(column: String, limit: Int) async throws {
        let t = try TempStore()
        // Multibyte scalars: `limit` of them pass though they take more bytes; one more does not.
        let atLimit = Self.long(limit, "é")
        let over = Self.long(limit + 1, "é")
        let text =
            "id,name,address,city,state,zip,country,lat,lon\n"
            + row(1, column, atLimit, lat: "45.112345") + row(2, column, over, lat: "45.212345") + row(3, column, "ok", lat: "45.312345")
        let report = try await t.importText(text, ImportOptions(network: "acme"))
        #expect(report.totals.rejected == 1 && report.totals.inserted == 2)
        #expect(report.files[0].rejectedByReason == ["field_too_long": 1])
        let issue = try #require(report.files[0].issues.first { $0.code == "field_too_long" })
        #expect(issue.line == 3)
        #expect(issue.message.contains("\(limit + 1) characters long, more than the \(limit)"))
        #expect(issue.message.count < 250, "the message quotes the whole value")
        #expect(issue.externalId == nil || issue.externalId!.count <= FieldLimits.locationId)
        for location in try t.snapshot() {
            for value in [
                location.externalId, location.name, location.address, location.city, location.region, location.postalCode,
                location.country,
            ].compactMap({ $0 }) {
                #expect(!FieldLimits.exceeds(value, FieldLimits.address))
            }
        }
    }

    /// A row for `fieldTooLong`: every column "x" but the one under test, outside the US so the check is range only.
    func row(_ id: Int, _ column: String, _ value: String, lat: String) -> String {
        let columns = ["id", "name", "address", "city", "state", "zip", "country"]
        var values = columns.map { $0 == "id" ? "r\(id)" : $0 == "country" ? "FI" : "x\(id)" }
        values[columns.firstIndex(of: column)!] = value
        return values.map { "\"\($0)\"" }.joined(separator: ",") + ",\(lat),25.112345\n"
    }

    @Test func aBrandValueIsLimitedAsAnAliasAndItsSlugAsANetworkId() async throws {
        let t = try TempStore()
        let text =
            "id,brand,lat,lon\n1,Acme,45.112345,25.112345\n2,\(Self.long(201)),45.212345,25.112345\n"
            + "3,\(Array(repeating: "ab", count: 60).joined(separator: " ")),45.312345,25.112345\n"
        let report = try await t.importText(text, ImportOptions(networkColumn: "brand"))
        #expect(report.totals == ImportCounts(read: 3, inserted: 1, rejected: 2))
        #expect(report.files[0].rejectedByReason == ["field_too_long": 2])
        // 120 letters and 59 dashes: 179 characters of id from a 179-character value that is a fine alias.
        #expect(report.files[0].issues.last?.message.contains("network id of 179 characters, more than the 100") == true)
        #expect(try t.store.networks().map(\.network.id) == ["acme"])
    }

    @Test func aNetworkNameColumnIsLimited() async throws {
        let t = try TempStore()
        let text = "id,brand,title,lat,lon\n1,acme,\(Self.long(201)),45.112345,25.112345\n"
        let report = try await t.importText(text, ImportOptions(networkColumn: "brand", networkNameColumn: "title"))
        #expect(report.files[0].rejectedByReason == ["field_too_long": 1])
        #expect(try t.store.networks().isEmpty)
    }

    @Test func optionsOverTheLimitsAreRefused() async throws {
        let t = try TempStore()
        await #expect(throws: ImportError.self) {
            try await t.importText("id,lat,lon\n1,45.1,25.1\n", ImportOptions(network: Self.long(201)))
        }
        await #expect(throws: ImportError.self) {
            try await t.importText("id,lat,lon\n1,45.1,25.1\n", ImportOptions(network: Self.long(150)))  // its slug: 150 > 100
        }
        await #expect(throws: ImportError.self) {
            try await t.importText("id,lat,lon\n1,45.1,25.1\n", ImportOptions(network: "acme", category: Self.long(101)))
        }
        #expect(try t.snapshot().isEmpty)
    }
}
