import ChainImport
import Foundation
import Geo
import LocationStore
import Testing

/// One reading of a row: a GeoJSON feature whose properties are named as a CSV's columns stores what that CSV row
/// stores. The oracle is the CSV import itself, on the same random rows, into a second store.
@Suite("GeoJSON properties read like CSV columns")
struct GeoJSONReadsLikeCSVTests {
    /// Header names a CSV could use for each role (any spelling the header rule accepts), one picked per file.
    static let headers: [(role: String, names: [String])] = [
        ("id", ["store_id", "Store Number", "id"]),
        ("name", ["Store Name", "title", "name"]),
        ("address", ["Address", "street_address"]),
        ("city", ["City", "town"]),
        ("region", ["State", "province"]),
        ("postal_code", ["zip", "Postal Code"]),
        ("country", ["country_code"]),
        ("latitude", ["Latitude", "lat", "Location.Latitude"]),
        ("longitude", ["Longitude", "lng", "Location.Longitude"]),
        ("network", ["Chain", "network"]),
        ("radius_m", ["radius_m", "Geofence Radius M"]),
        ("venue_radius_m", ["venue_radius_m"]),
        ("opening_hours", ["Opening Hours", "opening_times"]),
    ]

    struct Row {
        var cells: [String: String]  // role → text as the CSV holds it
        var hasGeometry: Bool
    }

    static func rows(_ count: Int, using random: inout SeededRandom) -> [Row] {
        (0..<count).map { i in
            var cells = [
                "id": "S-\(i)", "name": "Shop \(i)", "address": "\(i + 1) Main St", "city": "Springfield", "region": "IL",
                "postal_code": "6270\(i % 10)", "country": "US", "network": ["Acme", "Bolt"][i % 2],
                "latitude": String((Double.random(in: 39.7...39.9, using: &random) * 1e6).rounded() / 1e6),
                "longitude": String((Double.random(in: -89.7...(-89.5), using: &random) * 1e6).rounded() / 1e6),
            ]
            // Radii: whole and fractional numbers, out of range ones and words, each warned or taken alike.
            cells["radius_m"] = ["", "150", "87.5", "-5", "60000", "abc"][Int.random(in: 0..<6, using: &random)]
            cells["venue_radius_m"] = ["", "", "", "1200"][Int.random(in: 0..<4, using: &random)]
            cells["opening_hours"] = ["", "Mo-Fr 08:00-20:00", "24/7"][Int.random(in: 0..<3, using: &random)]
            return Row(cells: cells, hasGeometry: Bool.random(using: &random))
        }
    }

    static func csv(_ rows: [Row], names: [String: String]) -> String {
        let roles = headers.map(\.role)
        func quoted(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        return roles.map { quoted(names[$0]!) }.joined(separator: ",") + "\n"
            + rows.map { row in roles.map { quoted(row.cells[$0] ?? "") }.joined(separator: ",") }.joined(separator: "\n") + "\n"
    }

    /// The same rows as features: numeric cells as JSON numbers or strings at random, the point in the geometry (and
    /// then wrong coordinates in the properties, which must not be read) or, without a geometry, in the properties.
    static func geojson(_ rows: [Row], names: [String: String], using random: inout SeededRandom) throws -> Data {
        let numeric: Set<String> = ["latitude", "longitude", "radius_m", "venue_radius_m"]
        let features: [[String: Any]] = rows.map { row in
            var properties: [String: Any] = [:]
            // In the headers' order: a dictionary's would change from run to run, and the random draws with it.
            for role in headers.map(\.role) {
                guard let text = row.cells[role], !text.isEmpty else { continue }
                let asNumber = numeric.contains(role) && Bool.random(using: &random)
                properties[names[role]!] = asNumber ? (Double(text).map { $0 as Any } ?? text) : text
            }
            var geometry: Any = NSNull()
            if row.hasGeometry {
                geometry = ["type": "Point", "coordinates": [Double(row.cells["longitude"]!)!, Double(row.cells["latitude"]!)!]]
                properties[names["latitude"]!] = 1.0
                properties[names["longitude"]!] = 2.0
            }
            return ["type": "Feature", "geometry": geometry, "properties": properties]
        }
        return try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features])
    }

    @Test("random rows as CSV and as GeoJSON store the same locations and warnings", arguments: [3, 17, 41])
    func sameLocations(seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let names = Dictionary(uniqueKeysWithValues: Self.headers.map { ($0.role, $0.names.randomElement(using: &random)!) })
        let rows = Self.rows(120, using: &random)
        let fromCSV = try TempStore()
        let fromGeoJSON = try TempStore()
        let csvReport = try await fromCSV.importText(Self.csv(rows, names: names), name: "shops.csv", ImportOptions())
        let json = try Self.geojson(rows, names: names, using: &random)
        let geoReport = try await fromGeoJSON.importText(String(decoding: json, as: UTF8.self), name: "shops.geojson", ImportOptions())
        #expect(csvReport.totals.inserted == 120, "names: \(names)")
        #expect(geoReport.totals == csvReport.totals, "names: \(names)")
        #expect(geoReport.files[0].warningsByReason == csvReport.files[0].warningsByReason)
        let csvRows = try fromCSV.snapshot()
        let geoRows = try fromGeoJSON.snapshot()
        #expect(geoRows.count == csvRows.count)
        for (a, b) in zip(csvRows, geoRows) where a != b {
            Issue.record("\(a.externalId): CSV \(a) ≠ GeoJSON \(b)")
        }
        #expect(csvRows.contains { $0.radiusMeters == 87.5 } || !rows.contains { $0.cells["radius_m"] == "87.5" })
    }

    @Test("a property's true is not 1 m, and a geometry's point beats coordinate properties")
    func booleansAndGeometry() async throws {
        let t = try TempStore()
        let json = """
            {"type":"Feature","geometry":{"type":"Point","coordinates":[-89.612345,39.812345]},
             "properties":{"store_id":"a","name":"A","brand":"Acme","radius_m":true,"lat":10,"lon":20}}
            {"type":"Feature","geometry":null,"properties":{"id":"b","name":"B","brand":"Acme","lat":"39.818765","lon":-89.618765,"radius_m":"250"}}

            """
        let report = try await t.importText(json, name: "two.geojsonseq", ImportOptions())
        #expect(report.totals.inserted == 2)
        #expect(report.files[0].warningsByReason == ["invalid_radius": 1])
        let rows = Dictionary(uniqueKeysWithValues: try t.snapshot().map { ($0.externalId, $0) })
        #expect(rows["a"]?.radiusMeters == nil)
        #expect(rows["a"]?.coordinate.latitude == 39.812345 && rows["a"]?.coordinate.longitude == -89.612345)
        #expect(rows["b"]?.radiusMeters == 250)
        #expect(rows["b"]?.coordinate.latitude == 39.818765 && rows["b"]?.coordinate.longitude == -89.618765)
    }
}

extension GeoJSONReadsLikeCSVTests {
    @Test("on an OpenStreetMap element (osmium's or Overpass's), wikidata and network keep OSM's meaning; elsewhere they are CSV columns")
    func osmMeanings() async throws {
        let t = try TempStore()
        let json = """
            {"type":"Feature","geometry":{"type":"Point","coordinates":[-89.612345,39.812345]},
             "properties":{"@type":"node","@id":1,"name":"ATM","network":"Cirrus","wikidata":"Q1"}}
            {"type":"Feature","geometry":{"type":"Point","coordinates":[-89.613345,39.813345]},
             "properties":{"id":"2","name":"Shop","network":"Acme"}}
            {"type":"Feature","geometry":{"type":"Point","coordinates":[-89.614345,39.814345]},
             "properties":{"@id":"node/7","name":"Overpass ATM","network":"Cirrus","brand":"Bolt"}}

            """
        let report = try await t.importText(json, name: "osm.geojsonseq", ImportOptions())
        #expect(report.totals.inserted == 2)
        #expect(report.files[0].rejectedByReason == ["missing_network": 1])
        #expect(try t.snapshot().map(\.networkId).sorted() == ["acme", "bolt"])
        // Overpass's `@id` is the element whole, and the element is the id.
        #expect(try t.snapshot().contains { $0.externalId == "node/7" && $0.networkId == "bolt" })
    }
}
