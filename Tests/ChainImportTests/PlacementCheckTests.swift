import ChainImport
import Foundation
import Gazetteer
import Geo
import LocationStore
import Testing

/// Coordinates that mean what they say, with no state or country column to hold them against: a swapped or
/// sign-flipped pair is told apart from a real remote store by the file's other rows and by where people live.
@Suite("coordinates without a reference column")
struct PlacementCheckTests {
    static let manhattan = "id,name,lat,lon\n1,A,40.7128,-74.0060\n2,B,40.7306,-73.9866\n3,C,40.7580,-73.9855\n"

    func codes(_ text: String, fix: Bool = false) async throws -> [Int: String] {
        let t = try TempStore()
        var options = ImportOptions(network: "acme")
        options.fixCoordinates = fix
        let report = try await t.importText(text, options)
        return Dictionary(report.files[0].issues.map { ($0.line, $0.code) }, uniquingKeysWith: { a, _ in a })
    }

    @Test func aSwappedPairAmongTheFilesRowsIsRefused() async throws {
        let found = try await codes(Self.manhattan + "4,Swapped,-74.0060,40.7128\n5,Flipped,40.7128,74.0060\n")
        #expect(found[5] == "swapped_coordinates" && found[6] == "sign_flipped_longitude", "\(found)")
        #expect(found[2] == nil && found[3] == nil && found[4] == nil)
    }

    @Test func aTownIsKeptThoughItsMirrorIsAmongTheRowsSoFar() async throws {
        // Rows arrive in file order: a chain's stores around Lu'an (China) come first, then its first Perth store,
        // whose sign-flipped reading lands among them. Perth is a city: the store is kept. (A 1M-store world file
        // lost 56 real stores so, Madrid's beside Menorca's among them.)
        let luan = "id,name,lat,lon\n1,A,31.9400,115.8100\n2,B,31.9500,115.7900\n3,C,31.9300,115.8200\n"
        let found = try await codes(luan + "4,Perth,-31.9429,115.8066\n5,Madrid,40.4168,-3.7038\n")
        #expect(found[5] == nil && found[6] == nil, "\(found)")
    }

    @Test func aLonePairIsHeldAgainstWherePeopleLive() async throws {
        // One row each: no majority to compare with. At sea or in Antarctica, while the other reading is a city.
        #expect(try await codes("id,name,lat,lon\n1,NYC swapped,-74.0060,40.7128\n")[2] == "swapped_coordinates")
        #expect(try await codes("id,name,lat,lon\n1,Sydney,33.8688,151.2093\n")[2] == "sign_flipped_latitude")
        // With --fix-coordinates the row is stored where it belongs, with a warning.
        let t = try TempStore()
        var options = ImportOptions(network: "acme")
        options.fixCoordinates = true
        _ = try await t.importText("id,name,lat,lon\n1,Sydney,33.8688,151.2093\n", options)
        #expect(try t.snapshot().first?.coordinate.latitude == -33.8688)
    }

    @Test(
        "harbours, islands and remote places stand where the file says",
        arguments: [
            ("Helsinki market square, on the harbour", "60.1675", "24.9525"), ("Kirkwall, Orkney", "58.9810", "-2.9600"),
            ("Lihue, Kauai", "21.9789", "-159.3711"), ("Longyearbyen, Svalbard", "78.2232", "15.6267"),
            ("Stanley, Falklands", "-51.6977", "-57.8517"), ("Malé, Maldives", "4.1755", "73.5093"),
            ("Avarua, Rarotonga", "-21.2075", "-159.7750"), ("Alice Springs", "-23.6980", "133.8807"),
            ("Hobart harbour", "-42.8821", "147.3272"), ("Ushuaia", "-54.8019", "-68.3030"),
        ])
    func realPlacesAreKept(name: String, lat: String, lon: String) async throws {
        let quoted = "\"\(name)\""
        #expect(try await codes("id,name,lat,lon\n1,\(quoted),\(lat),\(lon)\n").isEmpty)
        // Also as the one far-off row of a Manhattan file.
        #expect(try await codes(Self.manhattan + "4,\(quoted),\(lat),\(lon)\n")[5] == nil)
    }

    @Test func outOfRangeIsOutOfRangeUnlessTheOtherReadingIsAPlace() async throws {
        let found = try await codes(Self.manhattan + "4,Typo,91.5,-73.99\n5,SF swapped,-122.4194,37.7749\n6,Far,45,200\n")
        #expect(found[5] == "out_of_range" && found[6] == "swapped_coordinates" && found[7] == "out_of_range", "\(found)")
    }

    @Test func decimalsAreCountedAsWritten() async throws {
        let found = try await codes("id,name,lat,lon\n1,Four,40.7300,-73.9900\n2,Two,40.73,-73.99\n3,Noise,40.70999908,-73.98999786\n")
        #expect(found[2] == nil, "four decimals as written")
        #expect(found[3] == "coarse_coordinates" && found[4] == "coarse_coordinates", "\(found)")
        #expect(CoordinatePrecision.writtenDecimals("40.7300") == 4 && CoordinatePrecision.writtenDecimals("-74") == 0)
        #expect(CoordinatePrecision.writtenDecimals("4.07e1") == nil && CoordinatePrecision.rowDecimals(text: "4.07e1", value: 40.7) == 1)
    }

    @Test func theWorldDataKnowsItsPlaces() {
        let world = CountryOutlines.shared
        #expect(world.codes.count == 177 && world.pointCount == 10_582)
        for (lat, lon, code) in [
            (40.7128, -74.0060, "USA"), (48.8566, 2.3522, "FRA"), (-33.8688, 151.2093, "AUS"), (35.6762, 139.6503, "JPN"),
            (-15.7939, -47.8828, "BRA"), (-1.2921, 36.8219, "KEN"), (55.7558, 37.6173, "RUS"), (-80, 40, "ATA"),
        ] {
            #expect(world.country(latitude: lat, longitude: lon) == code, "\(lat), \(lon)")
        }
        #expect(world.country(latitude: 30, longitude: -40) == nil, "mid-Atlantic")
        #expect(Habitation.isInhabited(latitude: 60.1675, longitude: 24.9525))
        #expect(!Habitation.isInhabited(latitude: 30, longitude: -40))
        #expect(!Habitation.isInhabited(latitude: -74.006, longitude: 40.7128), "Antarctica holds no store")
    }
}
