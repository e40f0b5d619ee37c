import ChainImport
import Foundation
import Geo
import LocationStore
import Testing

/// A GeoJSON file keeps the CSV import's promises on both stores: the same rows as the CSV of the same places (so
/// importing one after the other changes nothing), footprints as radii, and each unusable feature rejected alone.
@Suite("GeoJSON import conformance (SQLite and PostGIS)")
struct GeoJSONImportConformanceTests {
    struct Place {
        var ref: String
        var brand: String
        var name: String
        var street: String
        var number: String
        var city: String
        var zip: String
        var lat: Double
        var lon: Double
    }

    static func places(_ count: Int) -> [Place] {
        var random = SeededRandom(seed: 31)
        let brands = ["Alpha Mart", "Beta Foods", "Gamma Gas"]
        return (0..<count).map { i in
            Place(
                ref: "S\(1000 + i)", brand: brands[i % brands.count], name: "Store \(i) \"quoted\", with comma",
                street: ["Main St", "Oak Ave", "Lake Shore Dr"][i % 3], number: "\(10 + i)", city: "Chicago", zip: "60\(600 + i % 50)",
                lat: (Double.random(in: 41.70...41.95, using: &random) * 1e6).rounded() / 1e6,
                lon: (Double.random(in: -87.90...(-87.60), using: &random) * 1e6).rounded() / 1e6)
        }
    }

    static func csv(_ places: [Place]) -> String {
        func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        return "ref,brand,name,address,city,zip,country,lat,lon\n"
            + places.map { p in
                [p.ref, p.brand, quoted(p.name), "\(p.number) \(p.street)", p.city, p.zip, "US", "\(p.lat)", "\(p.lon)"].joined(separator: ",")
            }.joined(separator: "\n") + "\n"
    }

    static func feature(_ p: Place) -> [String: Any] {
        [
            "type": "Feature", "geometry": ["type": "Point", "coordinates": [p.lon, p.lat]],
            "properties": [
                "ref": p.ref, "brand": p.brand, "name": p.name, "addr:street": p.street, "addr:housenumber": p.number,
                "addr:city": p.city, "addr:postcode": p.zip, "addr:country": "US", "shop": "convenience",
            ],
        ]
    }

    static func write(_ text: some DataProtocol, _ suffix: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-geojson-\(UUID().uuidString).\(suffix)").path
        try Data(text).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("CSV, FeatureCollection and GeoJSONSeq of the same places store the same rows", arguments: TestStore.kinds)
    func sameRowsAsCSV(kind: StoreKind) async throws {
        var places = Self.places(300)
        let csv = try Self.write(Data(Self.csv(places).utf8), "csv")
        let collection = try Self.write(
            try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": places.map(Self.feature)], options: .prettyPrinted),
            "geojson")
        places[7].name = "Store 7, renamed"
        let sequence = try Self.write(
            try places.map { Data([0x1E]) + (try JSONSerialization.data(withJSONObject: Self.feature($0))) + Data([0x0A]) }.reduce(Data(), +),
            "geojsonseq")
        defer { for p in [csv, collection, sequence] { try? FileManager.default.removeItem(atPath: p) } }
        try await TestStore.with(kind) { store, _ in
            let options = ImportOptions()
            let first = try await ImportConformanceTests.importing(store, [csv], options)
            #expect(first.totals.inserted == 300 && first.totals.rejected == 0)
            let fromCSV = try await ImportConformanceTests.snapshot(store)
            let second = try await ImportConformanceTests.importing(store, [collection], options)
            #expect(second.files[0].format == "geojson")
            #expect(second.totals == ImportCounts(read: 300, unchanged: 300))
            #expect(try await ImportConformanceTests.snapshot(store) == fromCSV)
            let third = try await ImportConformanceTests.importing(store, [sequence], options)
            #expect(third.files[0].format == "geojsonseq")
            #expect(third.totals == ImportCounts(read: 300, updated: 1, unchanged: 299))
            let renamed = try await ImportConformanceTests.snapshot(store).first { $0.externalId == "S1007" }
            #expect(renamed?.name == "Store 7, renamed")
        }
    }

    /// A square outline of `side` metres centred at (lat, lon).
    static func square(_ side: Double, lat: Double, lon: Double) -> [[[Double]]] {
        let dLat = side / 2 / 111_195
        let dLon = dLat / cos(lat * .pi / 180)
        return [
            [[lon - dLon, lat - dLat], [lon + dLon, lat - dLat], [lon + dLon, lat + dLat], [lon - dLon, lat + dLat], [lon - dLon, lat - dLat]]
        ]
    }

    @Test("footprints become radii and venues; unusable features are rejected one by one", arguments: TestStore.kinds)
    func footprintsAndRejections(kind: StoreKind) async throws {
        func polygon(_ ref: String, _ side: Double, _ lat: Double) -> String {
            let geometry = try! JSONSerialization.data(withJSONObject: ["type": "Polygon", "coordinates": Self.square(side, lat: lat, lon: -87.7)])
            return #"{"type":"Feature","properties":{"ref":"\#(ref)","brand":"Alpha Mart"},"geometry":\#(String(decoding: geometry, as: UTF8.self))}"#
        }
        let features = [
            polygon("kiosk", 8, 41.80), polygon("market", 60, 41.81), polygon("mall", 1_200, 41.83),
            #"{"type":"Feature","properties":{"brand":"Alpha Mart","@type":"node","@id":5},"geometry":{"type":"Point","coordinates":[-87.71,41.85]}}"#,
            #"{"type":"Feature","properties":{"ref":"road","brand":"Alpha Mart"},"geometry":{"type":"LineString","coordinates":[[-87.7,41.9],[-87.6,41.9]]}}"#,
            #"{"type":"Feature","properties":{"ref":"bad","brand":"Alpha Mart","x":tru},"geometry":null}"#,
            #"{"type":"Feature","properties":{"ref":"nowhere","brand":"Alpha Mart"},"geometry":null}"#,
            #"{"type":"Place","properties":{"ref":"odd"}}"#,
            #"{"type":"Feature","properties":{"ref":"far","brand":"Alpha Mart"},"geometry":{"type":"Point","coordinates":[-187.7,41.9]}}"#,
        ]
        let path = try Self.write(Data(("{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "]}").utf8), "json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await TestStore.with(kind) { store, _ in
            let report = try await ImportConformanceTests.importing(store, [path], ImportOptions())
            #expect(report.totals.inserted == 4)
            #expect(
                report.files[0].rejectedByReason
                    == ["unsupported_geometry": 1, "invalid_geojson": 2, "missing_coordinates": 1, "out_of_range": 1])
            let rows = Dictionary(uniqueKeysWithValues: try await ImportConformanceTests.snapshot(store).map { ($0.externalId, $0) })
            #expect(rows["kiosk"]?.radiusMeters == nil && rows["kiosk"]?.venueRadiusMeters == nil)
            // Half the diagonal of a 60 m square, rounded up to whole metres: 43.
            #expect(rows["market"]?.radiusMeters == 43 && rows["market"]?.venueRadiusMeters == nil)
            #expect(rows["mall"]?.venueRadiusMeters == 849 && rows["mall"]?.radiusMeters == nil)
            #expect(rows["node/5"] != nil)
            let market = try #require(rows["market"])
            #expect(Sphere.distance(market.coordinate, try Coordinate(latitude: 41.81, longitude: -87.7)) < 1)
        }
    }
}
