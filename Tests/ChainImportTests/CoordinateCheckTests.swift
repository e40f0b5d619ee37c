import Geo
import Testing

@testable import ChainImport

@Suite("Coordinate validation")
struct CoordinateCheckTests {
    let check = CoordinateCheck()

    func code(_ lat: String, _ lon: String, region: String? = nil, country: String? = nil, fix: Bool = false) -> String {
        switch CoordinateCheck(fixCoordinates: fix).check(latitude: lat, longitude: lon, region: region, country: country) {
        case .accepted(_, let warning): warning.map { "ok+\($0.0.rawValue)" } ?? "ok"
        case .rejected(let code, _): code.rawValue
        }
    }

    @Test func basicRejections() {
        #expect(code("", "") == "missing_coordinates")
        #expect(code("40.7", "") == "missing_coordinates")
        #expect(code("40.7N", "-74") == "unparseable_coordinates")
        #expect(code("nan", "-74") == "unparseable_coordinates")
        #expect(code("0", "0") == "zero_coordinates")
        #expect(code("0.0", "-0.0") == "zero_coordinates")
        #expect(code("95", "200") == "out_of_range")
        #expect(code("-122.4", "37.7") == "swapped_coordinates")
        #expect(code("40.7", "-74.0") == "ok")
    }

    @Test func usRowsAreCheckedAgainstTheirState() {
        #expect(code("38.79998936", "90.73405594", region: "MO", country: "US") == "sign_flipped_longitude")  // O Fallon MO
        #expect(code("48.857845", "2.277513", region: "TX", country: "US") == "outside_country")  // Paris
        #expect(code("-87.6", "41.9", region: "IL") == "swapped_coordinates")
        #expect(code("32.26905", "-90.13568", region: "AL", country: "US") == "ok+outside_region")  // Pearl, MS
        #expect(code("61.2", "-149.9", region: "Alaska") == "ok")
        #expect(code("52.9", "173.2", region: "AK") == "ok")  // Attu, west of 180°
        #expect(code("13.47", "144.75", region: "GU") == "ok")  // Guam is east
        #expect(code("-14.28", "-170.7", region: "AS") == "ok")
        #expect(code("38.8", "90.7", region: "Co Spgs", country: "US") == "sign_flipped_longitude")  // unknown state, US
        #expect(code("38.8", "90.7", country: "China") == "ok")  // nothing to compare with
    }

    @Test func fixModeCorrectsWithAWarning() throws {
        let verdict = CoordinateCheck(fixCoordinates: true).check(latitude: "38.8", longitude: "90.7", region: "MO", country: nil)
        #expect(verdict == .accepted(try Coordinate(latitude: 38.8, longitude: -90.7), warning: (.signFlippedLongitude, "")))
        #expect(code("-87.6", "41.9", region: "IL", fix: true) == "ok+swapped_coordinates")
    }

    @Test func decimalCommaOnlyWhenTheDelimiterIsNotAComma() {
        #expect(
            CoordinateCheck(allowDecimalComma: true).check(latitude: "48,85", longitude: "2,35", region: nil, country: nil)
                == .accepted(try! Coordinate(latitude: 48.85, longitude: 2.35), warning: nil))
        #expect(code("48,85", "2,35") == "unparseable_coordinates")
    }

    @Test func regionsByCodeAndName() {
        #expect(USRegions.region("tx")?.code == "TX")
        #expect(USRegions.region(" New Hampshire ")?.code == "NH")
        #expect(USRegions.region("District of Columbia")?.code == "DC")
        #expect(USRegions.region("Co Spgs") == nil)
        #expect(USRegions.all.count == 56)
        // The two-letter fast path agrees with the normalised lookup for every region, in any case, and finds nothing
        // for two characters that are no region's code.
        for region in USRegions.all {
            let code = region.code
            let mixed = code.prefix(1).uppercased() + code.suffix(1).lowercased()
            for spelling in [code, code.lowercased(), mixed, " \(code) ", region.name, region.name.uppercased()] {
                #expect(USRegions.region(spelling) == region, "\(spelling)")
            }
        }
        let codes = Set(USRegions.all.map(\.code))
        for pair in ["ZZ", "QQ", "T1", "1T", "X", "é", "TXX"] where !codes.contains(pair) { #expect(USRegions.region(pair) == nil, "\(pair)") }
        #expect(USRegions.isUnitedStates("United States") && USRegions.isUnitedStates("USA") && !USRegions.isUnitedStates("Canada"))
    }
}
