import ChainImport
import Foundation
import Geo
import LocationStore
import TestSupport
import Testing

/// The osmium recipe (`scripts/osm-extract.sh`) on the OpenStreetMap extract of central Helsinki, imported into both
/// stores: every branded place lands with its OSM element as id, the log credits OpenStreetMap, and real building
/// outlines become centres inside them with radii that reach every corner. The features are read back from the
/// exported file with Foundation's JSON parser, independently of the import's own reader.
@Suite(
    "OpenStreetMap extracts through osmium (SQLite and PostGIS)",
    .enabled(
        if: ProcessInfo.processInfo.environment["ONCUE_OSM_EXTRACT"] != nil || ProcessInfo.processInfo.environment["ONCUE_SERVICES"] == "required"))
struct OSMExtractConformanceTests {
    struct Exported: Sendable {
        var id: String
        var brand: String?
        /// The first part of a MultiPolygon: its rings, as [longitude, latitude] pairs.
        var polygon: [[[Double]]]?
    }

    /// Runs the recipe once per process; the export is a few hundred kilobytes.
    static let export: (path: String, features: [Exported])? = {
        guard let extract = ProcessInfo.processInfo.environment["ONCUE_OSM_EXTRACT"] else { return nil }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-osm-\(UUID().uuidString).geojsonseq").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [SharedDatasets.repository.appendingPathComponent("scripts/osm-extract.sh").path, extract, out]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0, let text = try? String(contentsOfFile: out, encoding: .utf8) else { return nil }
        let features = text.split(separator: "\n").compactMap { line -> Exported? in
            let json = line.drop { $0 == "\u{1E}" }
            guard let f = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
                let p = f["properties"] as? [String: Any], let g = f["geometry"] as? [String: Any],
                let type = p["@type"] as? String, let id = p["@id"] as? NSNumber
            else { return nil }
            return Exported(
                id: "\(type)/\(id.int64Value)", brand: p["brand"] as? String,
                // osmium writes every area as a MultiPolygon; these buildings have one part.
                polygon: g["type"] as? String == "MultiPolygon" ? Self.rings((g["coordinates"] as? [Any])?.first) : nil)
        }
        return (out, features)
    }()

    static func rings(_ value: Any?) -> [[[Double]]]? {
        (value as? [Any])?.map { ring in ((ring as? [Any]) ?? []).map { (($0 as? [Any]) ?? []).compactMap { ($0 as? NSNumber)?.doubleValue } } }
    }

    static func requireExport() throws -> (path: String, features: [Exported]) {
        guard let export else {
            Issue.record(
                "ONCUE_OSM_EXTRACT is not set or scripts/osm-extract.sh failed (needs osmium-tool; `scripts/nominatim.sh pbf` gives the extract)")
            throw CocoaError(.fileNoSuchFile)
        }
        return export
    }

    /// The replay study imports a committed copy of this recipe's output (simulations/stores/SOURCE-helsinki.md): it
    /// must be what the recipe makes today, or the study's stores would come from somewhere else than they say.
    @Test func theStudysPlacesAreThisRecipesOutput() throws {
        let export = try Self.requireExport()
        let committed = SharedDatasets.repository.appendingPathComponent("simulations/stores/helsinki-osm.geojsonseq")
        let made = try Data(contentsOf: URL(fileURLWithPath: export.path))
        #expect(made == (try Data(contentsOf: committed)), "run simulations/tools/make_helsinki.py to bring the study's file up to date")
        #expect(export.features.count == 1_072)
    }

    @Test("every branded place is imported under its OSM element, and the log credits OpenStreetMap", arguments: TestStore.kinds)
    func brandedPlaces(kind: StoreKind) async throws {
        let (path, features) = try Self.requireExport()
        let branded = features.filter { $0.brand.map { !$0.isEmpty } ?? false }
        #expect(features.count > 500 && branded.count >= 5)
        try await TestStore.with(kind) { store, _ in
            let report = try await ImportConformanceTests.importing(store, [path], ImportOptions())
            #expect(report.files[0].format == "geojsonseq")
            #expect(report.totals.inserted == branded.count)
            #expect(report.files[0].rejectedByReason == ["missing_network": features.count - branded.count])
            let stored = try await ImportConformanceTests.snapshot(store)
            #expect(Set(stored.map(\.externalId)) == Set(branded.map(\.id)))
            let record = try #require(try await store.imports(limit: 1, before: nil).first)
            #expect(record.options["attribution"]?.contains("OpenStreetMap contributors, ODbL") == true)
        }
    }

    /// Even-odd on longitude/latitude: exact enough at a building's scale.
    static func inside(_ rings: [[[Double]]], lat: Double, lon: Double) -> Bool {
        var inside = false
        for ring in rings {
            var j = ring.count - 1
            for i in ring.indices {
                let (xi, yi, xj, yj) = (ring[i][0], ring[i][1], ring[j][0], ring[j][1])
                if (yi > lat) != (yj > lat), lon < (xj - xi) * (lat - yi) / (yj - yi) + xi { inside.toggle() }
                j = i
            }
        }
        return inside
    }

    @Test("a shopping centre, a department store and a kiosk: centres inside, radii to the farthest corner", arguments: TestStore.kinds)
    func buildings(kind: StoreKind) async throws {
        let (path, features) = try Self.requireExport()
        // Forum (a shopping centre), Stockmann (a department store), Helsingin Pystygrilli (a grill kiosk).
        let chosen = ["way/289767497", "way/122595241", "way/300626401"]
        let outlines = Dictionary(
            uniqueKeysWithValues: features.filter { chosen.contains($0.id) }.compactMap { f in f.polygon.map { (f.id, $0) } })
        try #require(outlines.count == 3, "the extract no longer has these buildings")
        try await TestStore.with(kind) { store, _ in
            var options = ImportOptions()
            options.mapping = MappingFile(columns: ["network": .columns(["name"])])
            _ = try await ImportConformanceTests.importing(store, [path], options)
            let stored = Dictionary(uniqueKeysWithValues: try await ImportConformanceTests.snapshot(store).map { ($0.externalId, $0) })
            for id in chosen {
                let location = try #require(stored[id])
                let rings = outlines[id]!
                #expect(Self.inside(rings, lat: location.coordinate.latitude, lon: location.coordinate.longitude), "\(id)")
                let farthest = try rings[0].map {
                    Sphere.distance(location.coordinate, try Coordinate(latitude: $0[1], longitude: $0[0]))
                }.max()!
                if farthest < 30 {
                    #expect(location.radiusMeters == nil, "\(id): a kiosk keeps the policy's radius")
                } else {
                    let radius = try #require(location.radiusMeters, "\(id)")
                    #expect(radius >= farthest - 0.01 && radius < farthest + 1.01, "\(id): \(radius) vs \(farthest)")
                }
            }
            #expect(stored["way/300626401"]?.radiusMeters == nil)
            #expect((stored["way/289767497"]?.radiusMeters ?? 0) > 50)
        }
    }
}
