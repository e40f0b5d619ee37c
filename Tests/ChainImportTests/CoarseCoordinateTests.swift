import ChainImport
import Foundation
import LocationStore
import SQLiteStore
import TestSupport
import Testing

@Suite("Coarse coordinates")
struct CoarseCoordinateTests {
    @Test("decimals are read from the value: trailing zeros and float32 noise do not count")
    func decimals() {
        #expect(CoordinatePrecision.decimals(40.71) == 2)
        #expect(CoordinatePrecision.decimals(Double("40.710000")!) == 2)
        #expect(CoordinatePrecision.decimals(Double(Float(40.71))) == 2)  // 40.70999908447266
        #expect(CoordinatePrecision.decimals(-74.0) == 0)
        #expect(CoordinatePrecision.decimals(40.712) == 3)
        #expect(CoordinatePrecision.decimals(40.7128) == 4)
        #expect(CoordinatePrecision.decimals(40.712776) == 4)
    }

    @Test("the implied error is half the grid cell's diagonal")
    func error() {
        // At the equator a 0.01° cell is 1,112 m square: its half diagonal is 786 m.
        #expect(abs(CoordinatePrecision.errorMeters(decimals: 2, latitude: 0) - 786.3) < 1)
        // At 60° the cell is half as wide.
        #expect(abs(CoordinatePrecision.errorMeters(decimals: 2, latitude: 60) - 621.6) < 1)
        #expect(abs(CoordinatePrecision.errorMeters(decimals: 3, latitude: 0) - 78.6) < 0.1)
    }

    @Test("a file's grid is the coarsest one that nine rows in ten sit on, at most three decimals")
    func fileGrid() {
        #expect(CoordinatePrecision.fileGrid(sample: Array(repeating: 3, count: 95) + Array(repeating: 4, count: 5)) == 3)
        #expect(CoordinatePrecision.fileGrid(sample: Array(repeating: 3, count: 80) + Array(repeating: 4, count: 20)) == nil)
        #expect(CoordinatePrecision.fileGrid(sample: Array(repeating: 2, count: 100)) == 2)
        #expect(CoordinatePrecision.fileGrid(sample: Array(repeating: 2, count: 10)) == nil, "too few rows to speak of a grid")
    }

    /// The shared Chipotle directory (8 decimals) rounded to two, as a well-known coffee chain publishes its stores.
    static func roundedChipotle(decimals: Int) throws -> (text: String, rows: Int) {
        let path = try SharedDatasets.path("chain-chipotle-us/chipotle_stores.csv")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline)
        var out = "state,location,address,latitude,longitude\n"
        for line in lines.dropFirst() {
            // state,location,"address",latitude,longitude,count
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            let n = fields.count
            guard n >= 6, let lat = Double(fields[n - 3]), let lon = Double(fields[n - 2]) else { continue }
            let head = fields[0..<(n - 3)].joined(separator: ",")
            out += head + "," + String(format: "%.\(decimals)f,%.\(decimals)f", lat, lon) + "\n"
        }
        return (out, lines.count - 1)
    }

    @Test(
        "a directory rounded to two decimals: every row warned, a file diagnosis, and 'same rounded coordinates' instead of '0 m'",
        .needsSharedDatasets)
    func roundedDirectory() async throws {
        let (text, rows) = try Self.roundedChipotle(decimals: 2)
        let t = try TempStore()
        let report = try await t.importText(text, name: "chipotle-2dp.csv", ImportOptions(network: "chipotle"))
        let file = try #require(report.files.first)
        #expect(file.counts.read == rows)
        #expect(file.warningsByReason["coarse_coordinates"] == file.counts.read - file.counts.rejected)
        #expect(file.coarseRows == file.counts.read - file.counts.rejected)
        let diagnosis = try #require(file.coordinatePrecision)
        #expect(diagnosis.typicalDecimals == 2 && diagnosis.fileGridDecimals == 2 && diagnosis.share == 1)
        // Across the continental US a 0.01° cell's half diagonal is 680–760 m.
        #expect(diagnosis.errorMeters > 650 && diagnosis.errorMeters < 780)
        #expect(diagnosis.advice.contains("--geocode coarse"))
        // Rows that collide only after rounding are near duplicates that say why, never "0 m from".
        let importId = try #require(file.importId)
        let log = try #require(try t.store.importRecord(id: importId))
        let nearDuplicates = log.issues.filter { $0.code == "near_duplicate" }
        #expect(!nearDuplicates.isEmpty)
        #expect(nearDuplicates.allSatisfy { $0.message.contains("same rounded coordinates") && !$0.message.hasPrefix("0 m") })
        #expect(log.coordinatePrecision == diagnosis, "the diagnosis is kept in the import log")
    }

    @Test("the same directory with its real precision: no coarse warning and no diagnosis", .needsSharedDatasets)
    func preciseDirectory() async throws {
        let t = try TempStore()
        let report = try await t.importFiles([try SharedDatasets.path("chain-chipotle-us/chipotle_stores.csv")], ImportOptions(network: "chipotle"))
        #expect(report.files[0].warningsByReason["coarse_coordinates"] == nil)
        #expect(report.files[0].coordinatePrecision == nil)
    }

    @Test(
        "a file on a three-decimal grid: its rows are coarse; a few three-decimal rows in a precise file are not",
        .needsSharedDatasets)
    func threeDecimalGrid() async throws {
        let (gridded, _) = try Self.roundedChipotle(decimals: 3)
        let t = try TempStore()
        let report = try await t.importText(gridded, ImportOptions(network: "chipotle"))
        let file = report.files[0]
        #expect(file.coordinatePrecision?.fileGridDecimals == 3)
        #expect(file.coordinatePrecision?.typicalDecimals == 3)
        #expect((file.warningsByReason["coarse_coordinates"] ?? 0) == file.counts.read - file.counts.rejected)

        // 40 precise rows and 3 on a 0.001° grid: no grid for the file, so the three are not coarse.
        var mixed = "id,lat,lon\n"
        for i in 1...40 { mixed += "p\(i),\(40 + Double(i) * 0.0123457),\(-75 - Double(i) * 0.0234567)\n" }
        for i in 0..<3 { mixed += "g\(i),\(41 + Double(i) / 1000),-76.123\n" }
        let second = try await t.importText(mixed, ImportOptions(network: "mixed"))
        #expect(second.files[0].warningsByReason["coarse_coordinates"] == nil)
        #expect(second.files[0].coordinatePrecision == nil)
        // Two decimals are coarse anywhere.
        let one = try await t.importText("id,lat,lon\nx,40.25,-75.5\n", ImportOptions(network: "one"))
        #expect(one.files[0].warningsByReason["coarse_coordinates"] == 1)
        #expect(one.files[0].issues.first?.message.contains("±") == true)
    }
}
