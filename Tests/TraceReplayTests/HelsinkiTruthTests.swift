import ChainImport
import Foundation
import Geo
import LocationStore
import OnCueClient
import StoreOpening
import Testing

@testable import TraceReplay

/// The Helsinki scenario's ground truth by construction (`truth.csv`, from the generator) against the simulator's own
/// detector run on the noiseless paths with the scenario's rule (25 m footprint + 10 m, at least 120 s), both grouped
/// into card moments. Same-building stores are the one allowed difference: a stay beside an intended visit.
@Suite struct HelsinkiTruthTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func file(_ relative: String) -> String { repo.appendingPathComponent(relative).path }

    /// RFC 4180 rows (quoted fields may hold commas), header first.
    static func csv(_ path: String) throws -> [[String: String]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var rows: [[String]] = []
        var field = ""
        var row: [String] = []
        var quoted = false
        var chars = Array(text).makeIterator()
        while let c = chars.next() {
            if quoted {
                if c == "\"" { quoted = false } else { field.append(c) }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                row.append(field)
                field = ""
            } else if c == "\n" {
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            } else if c != "\r" {
                field.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty {
            row.append(field)
            rows.append(row)
        }
        guard let header = rows.first else { return [] }
        return rows.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    struct Intended { var trace: String, store: String, network: String, card: Bool, arrival: Double, departure: Double }

    /// truth.csv's card visits grouped as the definition says, written out here rather than taken from `CardMoments`.
    static func intendedMoments(_ visits: [Intended], gap: Double) -> [(network: String, arrival: Double, departure: Double)] {
        var out: [(network: String, arrival: Double, departure: Double)] = []
        for v in visits.sorted(by: { $0.arrival < $1.arrival }) {
            if let i = out.lastIndex(where: { $0.network == v.network }), v.arrival <= out[i].departure + gap {
                out[i].departure = max(out[i].departure, v.departure)
            } else {
                out.append((v.network, v.arrival, v.departure))
            }
        }
        return out
    }

    /// The scenario's stores as the study gets them: the extract's places imported with the chain mapping file.
    static func importedStores() async throws -> [Location] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-helsinki-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await StoreAddress.file(directory.appendingPathComponent("helsinki.sqlite").path).create()
        var options = ImportOptions()
        options.mapping = try MappingFile.load(path: file("simulations/stores/helsinki-chains.json"))
        let report = try await ChainImporter(for: store, options: options).run([
            try ImportInput.file(file("simulations/stores/helsinki-osm.geojsonseq"))
        ])
        #expect(report.files[0].rejectedByReason == [ReasonCode.unmatchedNetwork.rawValue: 976], "every place but the chains' is left out")
        var locations: [Location] = []
        try await store.forEachLocation(batchSize: 1_000) { locations += $0 }
        await store.close()
        return locations
    }

    @Test func detectorAgreesWithTheGeneratorsTruth() async throws {
        let scenario = try Scenario.load(json: Data(contentsOf: URL(fileURLWithPath: Self.file("simulations/scenarios/helsinki-ios.json"))))
        let model = scenario.groundTruth
        #expect(model.storeRadiusMeters == 25 && model.truePaths == "true")
        let wallet = try Wallet.load(json: Data(contentsOf: URL(fileURLWithPath: Self.file("simulations/wallets/helsinki.json"))))
        let cards = Set(wallet.networkIds)
        let locations = try await Self.importedStores()
        #expect(locations.count == 96)
        let byExternal = Dictionary(locations.map { ($0.externalId, $0) }, uniquingKeysWith: { a, _ in a })
        let stores = StoreCatalog(locations: locations.filter { cards.contains($0.networkId) }, storeRadiusMeters: model.storeRadiusMeters).stores
        let truth = try Self.csv(Self.file("simulations/traces/helsinki/truth.csv")).map {
            Intended(
                trace: $0["trace"] ?? "", store: $0["store_id"] ?? "", network: $0["network_id"] ?? "", card: $0["card"] == "yes",
                arrival: TraceTime.parseISO(Substring($0["arrival"] ?? "")) ?? 0, departure: TraceTime.parseISO(Substring($0["departure"] ?? "")) ?? 0
            )
        }
        #expect(truth.count == 102)
        #expect(truth.allSatisfy { byExternal[$0.store]?.networkId == $0.network }, "truth.csv's stores and networks are the importer's")

        var intendedCount = 0
        var besideCount = 0
        let gpx = (1...24).map { String(format: "simulations/traces/helsinki/walk-%02d.gpx", $0) }
        for name in gpx {
            let path = try #require(try TruePathLoader.load(for: Self.file(name), model: model, cleaning: scenario.trace))
            let detected = CardMoments.merge(GroundTruth.compute(path, stores: stores, model: model).visits, gapSeconds: scenario.app.cooldownSeconds)
            let mine = truth.filter { $0.trace == (name as NSString).lastPathComponent }
            let intended = Self.intendedMoments(mine.filter(\.card), gap: scenario.app.cooldownSeconds)
            intendedCount += intended.count
            // Every intended moment lies within a detected moment of its network, and every intended visit within a
            // detected visit of the same store that starts at most two minutes earlier (the path may run along the
            // store's front within 35 m before it turns in); a moment may start earlier still when it opens with a
            // same-building stay of the same network.
            for t in intended {
                #expect(
                    detected.contains { $0.networkId == t.network && $0.arrival <= t.arrival && $0.departure >= t.departure },
                    "\(name): \(t.network) at \(TraceTime.format(t.arrival)) not detected")
            }
            for v in mine where v.card {
                let id = byExternal[v.store]?.id
                let found = detected.flatMap(\.visits).first { $0.locationId == id && $0.arrival <= v.arrival && $0.departure >= v.departure }
                #expect(found.map { v.arrival - $0.arrival <= 120 } == true, "\(name): \(v.store) at \(TraceTime.format(v.arrival))")
            }
            // Every other detected moment is a stay beside an intended visit: during one, at a store within 70 m (two
            // 35 m circles) of the store visited. None is a walk-by.
            for d in detected where !intended.contains(where: { $0.network == d.networkId && d.arrival <= $0.arrival && d.departure >= $0.departure })
            {
                let beside = mine.contains { v in
                    guard let visited = byExternal[v.store] else { return false }
                    return v.arrival <= d.departure && v.departure >= d.arrival
                        && d.visits.contains { s in
                            Sphere.distance(visited.coordinate, Coordinate(uncheckedLatitude: s.lat, longitude: s.lon)) <= 70
                        }
                }
                #expect(beside, "\(name): \(d.networkId) at \(TraceTime.format(d.arrival)) is neither intended nor beside a visit")
                besideCount += 1
            }
        }
        #expect(intendedCount > 70)
        // Same-building extras exist (the Forum, Stockmann and the station hold several card stores), but the intended
        // moments are the bulk.
        #expect(besideCount > 0 && besideCount < intendedCount)
    }
}
