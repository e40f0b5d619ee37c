import ChainImport
import Foundation
import LocationStore
import Testing

/// A location's opening hours reach both stores as the file wrote them, take part in "unchanged", and a value the
/// reader does not understand is kept and warned once per file.
@Suite("Opening hours in the store (SQLite and PostGIS)")
struct OpeningHoursConformanceTests {
    static func file(_ hours: [String]) -> String {
        "id,brand,lat,lon,opening_hours\n"
            + hours.enumerated().map { i, h in "\(i),Alpha,\(String(format: "%.6f", 60.171234 + Double(i) * 0.001)),24.941234,\"\(h)\"" }.joined(
                separator: "\n") + "\n"
    }

    @Test("stored as written, compared on re-import, an unknown form warned once", arguments: TestStore.kinds)
    func stored(kind: StoreKind) async throws {
        let hours = ["Mo-Fr 08:00-20:00; Sa 09:00-18:00", "24/7", "Jun-Aug: Mo-Su 09:00-24:00", "Jun-Aug: Mo-Su 09:00-24:00", ""]
        let first = try GeoJSONImportConformanceTests.write(Data(Self.file(hours).utf8), "csv")
        var changed = hours
        changed[1] = "Mo-Su 06:00-23:00"
        let second = try GeoJSONImportConformanceTests.write(Data(Self.file(changed).utf8), "csv")
        defer { for p in [first, second] { try? FileManager.default.removeItem(atPath: p) } }
        try await TestStore.with(kind) { store, _ in
            let report = try await ImportConformanceTests.importing(store, [first], ImportOptions(networkColumn: "brand"))
            #expect(report.totals.inserted == 5)
            #expect(report.files[0].warningsByReason == ["unparsed_opening_hours": 1])
            let rows = Dictionary(uniqueKeysWithValues: try await ImportConformanceTests.snapshot(store).map { ($0.externalId, $0.openingHours) })
            #expect(rows["0"] == hours[0] && rows["2"] == hours[2] && rows["4"] == .some(nil))
            var records: [IndexRecord] = []
            try await store.forEachIndexRecord(batchSize: 10) { records += $0 }
            #expect(records.first { $0.id == "loc_alpha_1" }?.openingHours == "24/7")
            let again = try await ImportConformanceTests.importing(store, [first], ImportOptions(networkColumn: "brand"))
            #expect(again.totals.unchanged == 5)
            let update = try await ImportConformanceTests.importing(store, [second], ImportOptions(networkColumn: "brand"))
            #expect(update.totals.updated == 1 && update.totals.unchanged == 4)
            #expect(try await store.location(id: "loc_alpha_1")?.openingHours == "Mo-Su 06:00-23:00")
        }
    }
}
