import Foundation
import Testing

@testable import ChainImport

@Suite("Column mapping")
struct MappingTests {
    /// Rows read their fields by `FieldRole.ordinal`: it must be each role's place in `allCases`.
    @Test func roleOrdinalsAreThePlacesInAllCases() {
        for (place, role) in FieldRole.allCases.enumerated() { #expect(role.ordinal == place, "\(role)") }
    }

    /// Header and region names are normalised on every row; the ASCII fast path must agree with the Unicode rule.
    @Test func asciiNormalisingAgreesWithTheUnicodeRule() {
        let unicodeRule = { (s: String) in
            String(s.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }.map(Character.init))
        }
        var state: UInt64 = 7
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<(Int(state >> 60) + 1) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(UInt8((state >> 33) % 128))
            }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(ColumnMapping.normalise(text) == unicodeRule(text), "\(text.debugDescription)")
        }
        #expect(ColumnMapping.normalise("Québec") == "québec")
    }
    @Test func headerSynonymsWithSpacesCaseAndDots() throws {
        let m = try ColumnMapping(headers: ["Address", " City", " State", " Zip Code", " Latitude", " Longitude"])
        #expect(
            m.described == [
                "address": "Address", "city": "City", "region": "State", "postal_code": "Zip Code",
                "latitude": "Latitude", "longitude": "Longitude",
            ])
        let target = try ColumnMapping(headers: [
            "Address.AddressLine1", "Address.Latitude", "Address.Longitude", "AlternateIdentifier.ID", "ID", "Name",
        ])
        #expect(target.indexes(.id) == [4])  // the exact `ID` beats the dotted `AlternateIdentifier.ID`
        #expect(target.indexes(.latitude) == [1])
        #expect(target.indexes(.address) == [0])
    }

    @Test func imlsSpellingsAndCompositeId() throws {
        let m = try ColumnMapping(headers: ["STABR", "FSCSKEY", "FSCS_SEQ", "LIBNAME", "LONGITUD", "LATITUDE"])
        #expect(m.indexes(.longitude) == [4])
        #expect(m.indexes(.latitude) == [5])
        #expect(m.indexes(.id) == [1, 2])
        #expect(m.indexes(.region) == [0])
        #expect(m.indexes(.name) == [3])
    }

    @Test func shortNames() throws {
        let m = try ColumnMapping(headers: ["store number", "lng", "lat", "brand"])
        #expect(m.indexes(.id) == [0])
        #expect(m.indexes(.longitude) == [1])
        #expect(m.indexes(.network) == [3])
    }

    @Test func refusesAFileWithoutCoordinatesListingTheHeaders() {
        #expect(throws: MappingError.noCoordinateColumns(headers: ["name", "address", "city"])) {
            try ColumnMapping(headers: ["name", " address", "city "])
        }
        let message = MappingError.noCoordinateColumns(headers: ["name", "address"]).description
        #expect(message.contains("'name', 'address'"))
        // A file of addresses only is what a geocoder is for: the message says so.
        #expect(message.contains("--geocoder"))
    }

    @Test func mappingFileOverridesAndCanSwitchRolesOff() throws {
        let json = #"{"columns": {"latitude": "Y_COORD", "longitude": "X_COORD", "name": null, "id": ["SYS", "SEQ"]}}"#
        let file = try JSONDecoder().decode(MappingFile.self, from: Data(json.utf8))
        let m = try ColumnMapping(headers: ["SYS", "SEQ", "name", "Y_COORD", "X_COORD", "lat"], file: file)
        #expect(m.indexes(.latitude) == [3])
        #expect(m.indexes(.longitude) == [4])
        #expect(m.indexes(.name) == nil)
        #expect(m.indexes(.id) == [0, 1])
    }

    @Test func mappingFileNamingAMissingColumnIsRefused() throws {
        let file = MappingFile(columns: ["latitude": .columns(["nope"])])
        #expect(throws: MappingError.unknownColumn(role: "latitude", column: "nope", headers: ["lat", "lon"])) {
            try ColumnMapping(headers: ["lat", "lon"], file: file)
        }
    }

    @Test func mappingFileWithUnknownRoleIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("map-\(UUID().uuidString).json")
        try Data(#"{"columns": {"lattitude": "y"}}"#.utf8).write(to: dir)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: MappingError.self) { try MappingFile.load(path: dir.path) }
    }
}

/// Two columns that could hold the latitude (or longitude): the file is refused, naming both, until a mapping says which.
@Suite("Ambiguous coordinate columns")
struct AmbiguousColumnTests {
    @Test func twoLatitudeColumnsAreRefusedNamingBoth() throws {
        #expect(throws: MappingError.ambiguousColumns(role: "latitude", columns: ["'lat' (column 2)", "'latitude' (column 4)"], byNumber: false)) {
            try ColumnMapping(headers: ["id", "lat", "lon", "latitude"])
        }
        #expect(throws: MappingError.ambiguousColumns(role: "longitude", columns: ["'lon' (column 3)", "'lon' (column 4)"], byNumber: true)) {
            try ColumnMapping(headers: ["id", "lat", "lon", "lon"])
        }
        #expect(throws: MappingError.self) { try ColumnMapping(headers: ["Address.Latitude", "lat", "lng"]) }
    }

    @Test func aMappingSaysWhich() throws {
        let byName = try ColumnMapping(headers: ["id", "lat", "lon", "latitude"], file: MappingFile(columns: ["latitude": .columns(["latitude"])]))
        #expect(byName.indexes(.latitude) == [3])
        let byNumber = try ColumnMapping(headers: ["id", "lat", "lon", "lon"], file: MappingFile(columns: ["longitude": .columns(["#4"])]))
        #expect(byNumber.indexes(.longitude) == [3])
        // A name two columns share cannot say which.
        #expect(throws: MappingError.self) {
            try ColumnMapping(headers: ["id", "lat", "lon", "lon"], file: MappingFile(columns: ["longitude": .columns(["lon"])]))
        }
        #expect(throws: MappingError.self) {
            try ColumnMapping(headers: ["id", "lat", "lon"], file: MappingFile(columns: ["longitude": .columns(["#9"])]))
        }
    }

    @Test func theImportRefusesTheFileAndSaysSo() async throws {
        let t = try TempStore()
        await #expect(
            throws: ImportError.mapping(
                file: "test.csv",
                .ambiguousColumns(
                    role: "latitude", columns: ["'lat' (column 1)", "'latitude' (column 3)"], byNumber: false))
        ) {
            try await t.importText("lat,lon,latitude\n40.112345,-74.112345,41.112345\n", ImportOptions(network: "acme"))
        }
        #expect(try t.snapshot().isEmpty)
    }

    /// The headers listed in an error are cut short and limited in number.
    @Test func headerListsInErrorsAreBounded() {
        let headers = (0..<5_000).map { "column \($0) " + String(repeating: "h", count: 200) + "\u{1B}[31m" }
        let message = MappingError.noCoordinateColumns(headers: headers).description
        #expect(message.count < 2_500)
        #expect(message.contains("and 4970 more"))
        #expect(!message.contains("\u{1B}"))
    }
}
