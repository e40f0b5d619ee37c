import Foundation
import Geo
import LocationStore
import Logging
import PostgresNIO
import StoreOpening
import SyntheticData
import Testing

@testable import PostGISStore

/// The PostGIS store keeps points as `geometry` and answers by OnCue's own great-circle distance: where degrees and
/// metres part ways most (the antimeridian, the poles, high latitudes) its answers still equal brute force.
@Suite("Points as geometry (PostGIS), nearest by the ground")
struct GeometryColumnTests {
    /// Clusters where a box in degrees is easy to get wrong.
    static let hardPlaces: [(lat: Double, lon: Double)] = [(0, 179.995), (0, -179.995), (89.99, 0), (-89.995, 120), (70, 30), (65.2, -179.99)]

    static func hardLocations() -> [Location] {
        var rng = SeededRandom(seed: 29)
        var out: [Location] = []
        for (k, place) in hardPlaces.enumerated() {
            let c = Coordinate(uncheckedLatitude: place.lat, longitude: place.lon)
            for i in 0..<300 {
                let p = Sphere.destination(from: c, meters: .random(in: 0...30_000, using: &rng), bearing: .random(in: 0..<360, using: &rng))
                out.append(
                    Location(networkId: i % 3 == 0 ? "a" : "b", externalId: "\(k)-\(i)", name: "p", coordinate: p))
            }
        }
        return out
    }

    @Test("nearby at the antimeridian and the poles equals brute force", arguments: TestStore.kinds)
    func nearbyAtTheEdges(kind: StoreKind) async throws {
        try await TestStore.with(kind) { store, _ in
            for id in ["a", "b"] { try await store.upsertNetwork(Network(id: id, name: id)) }
            let locations = Self.hardLocations()
            _ = try await store.upsert(locations)
            var rng = SeededRandom(seed: 31)
            for q in 0..<90 {
                let place = Self.hardPlaces[q % Self.hardPlaces.count]
                let center = Sphere.destination(
                    from: Coordinate(uncheckedLatitude: place.lat, longitude: place.lon), meters: .random(in: 0...20_000, using: &rng),
                    bearing: .random(in: 0..<360, using: &rng))
                let networks: Set<String>? = q % 4 == 0 ? ["a"] : nil
                let query = NearbyQuery(
                    center: center, radiusMeters: [2_000, 15_000, 50_000][q % 3], limit: [1, 20, 50][(q / 3) % 3], networks: networks)
                var want: [(id: String, distance: Double)] = []
                for l in locations where networks?.contains(l.networkId) ?? true {
                    let d = Sphere.distance(center, l.coordinate)
                    if d <= query.radiusMeters { want.append((l.id, d)) }
                }
                want.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.id < $1.id }
                let got = try await store.nearby(query)
                #expect(got.map(\.location.id) == want.prefix(query.limit).map(\.id), "query \(q) at \(center)")
            }
        }
    }

    @Test("a box whose corners hold more stores than the radius: the nearest inside the radius still come back", arguments: TestStore.kinds)
    func crowdedCorners(kind: StoreKind) async throws {
        try await TestStore.with(kind) { store, _ in
            try await store.upsertNetwork(Network(id: "a", name: "a"))
            // Across the antimeridian from the centre, 23 km away; in the box's corners, 55 km away and nearer in degrees.
            var locations: [Location] = []
            for i in 0..<30 {
                locations.append(
                    Location(
                        networkId: "a", externalId: "near-\(i)", name: "n",
                        coordinate: Coordinate(uncheckedLatitude: Double(i) * 1e-4, longitude: -179.8)))
            }
            for i in 0..<40 {
                let lat = i % 2 == 0 ? 0.4 : -0.4
                locations.append(
                    Location(
                        networkId: "a", externalId: "corner-\(i)", name: "c",
                        coordinate: Coordinate(uncheckedLatitude: lat + Double(i) * 1e-5, longitude: 179.7)))
            }
            _ = try await store.upsert(locations)
            let center = Coordinate(uncheckedLatitude: 0, longitude: 179.99)
            let got = try await store.nearby(NearbyQuery(center: center, radiusMeters: 50_000, limit: 20))
            var within: [(id: String, meters: Double)] = []
            for l in locations {
                let d = Sphere.distance(center, l.coordinate)
                if d <= 50_000 { within.append((l.id, d)) }
            }
            within.sort { $0.meters != $1.meters ? $0.meters < $1.meters : $0.id < $1.id }
            let want = within.prefix(20).map(\.id)
            #expect(want.count == 20 && got.map(\.location.id) == want)
        }
    }

    @Test("every point within the distance lies in the boxes, as Swift and as SQL compute them")
    func boxesHoldTheCap() async throws {
        var rng = SeededRandom(seed: 37)
        var pairs: [(center: Coordinate, point: Coordinate, meters: Double)] = []
        for _ in 0..<4_000 {
            let lat = [Double.random(in: -90...90, using: &rng), .random(in: 85...90, using: &rng), -.random(in: 85...90, using: &rng)][
                Int.random(in: 0..<3, using: &rng)]
            let lon = Bool.random(using: &rng) ? Double.random(in: -180...180, using: &rng) : (Bool.random(using: &rng) ? 179.9 : -179.9)
            let center = Coordinate(uncheckedLatitude: lat, longitude: lon)
            let meters = [10.0, 500, 20_000, 300_000][Int.random(in: 0..<4, using: &rng)]
            let point = Sphere.destination(from: center, meters: meters * .random(in: 0...1, using: &rng), bearing: .random(in: 0..<360, using: &rng))
            pairs.append((center, point, meters))
            let inside = NearbyBox.boxes(around: center, meters: meters).contains { $0.contains(point) }
            #expect(inside, "\(point) within \(meters) m of \(center)")
        }
        guard TestStore.kinds.contains(.postgis) else { return }
        // The per-row SQL form, evaluated by PostGIS itself for the same pairs.
        try await TestStore.with(.postgis) { opened, _ in
            let store = try #require(opened as? PostGISLocationStore)
            for (i, pair) in pairs.enumerated() where i % 4 == 0 {
                let predicate = NearbyBox.predicate(
                    column: "ST_SetSRID(ST_MakePoint(\(pair.point.longitude), \(pair.point.latitude)), 4326)",
                    latitude: "(\(pair.center.latitude))::float8", longitude: "(\(pair.center.longitude))::float8", meters: pair.meters)
                let inside = try await store.rows(PostgresQuery(unsafeSQL: "SELECT \(predicate)")).first?.decode(Bool.self)
                #expect(inside == true, "SQL: \(pair.point) within \(pair.meters) m of \(pair.center)")
            }
        }
    }

    /// Schema 7 keeps one key for (network, external id): the primary key on ids that a check holds to
    /// `loc_<network>_<external id>`; a network's rows are read as a range of that key.
    @Test("the primary key is the key on (network, external id), and a network's id range holds its locations only")
    func oneKeyForNetworkAndExternalId() async throws {
        guard TestStore.kinds.contains(.postgis) else { return }
        let test = try await TestStore.make(.postgis)
        defer { Task { await test.remove() } }
        guard case .postgres(let url) = test.address else { return }
        let store = try await test.address.create()
        // Ids that sort right next to each other: a, a-b (`-` sorts before `_`), ab (`b` after the backquote).
        for id in ["a", "a-b", "ab"] { try await store.upsertNetwork(Network(id: id, name: id)) }
        let c = Coordinate(uncheckedLatitude: 60.17, longitude: 24.94)
        _ = try await store.upsert(
            ["a", "a-b", "ab"].flatMap { n in ["1", "2_x"].map { Location(networkId: n, externalId: $0, name: n, coordinate: c) } })
        #expect(try await store.locationIds(networkId: "a") == ["loc_a_1", "loc_a_2_x"])
        #expect(try await store.locations(networkId: "ab").map(\.externalId) == ["1", "2_x"])
        _ = try await store.deleteNetwork(id: "a-b")
        let left = (try await store.locationIds(networkId: "a").count, try await store.locationIds(networkId: "ab").count)
        #expect(left == (2, 2))
        await store.close()
        let insert = """
            INSERT INTO locations (id, network_id, external_id, name, lat, lon, geom, geohash, created_at, updated_at)
            VALUES ('%@', 'a', '%@', 'x', 60.17, 24.94, ST_SetSRID(ST_MakePoint(24.94, 60.17), 4326), 'ud9wr', now(), now())
            """
        // An id that names another external id, and the same (network, external id) again: both refused.
        await #expect(throws: (any Error).self) { try await Admin.run(url, String(format: insert, "loc_a_9", "8")) }
        await #expect(throws: (any Error).self) { try await Admin.run(url, String(format: insert, "loc_a_1", "1")) }
        try await Admin.run(url, String(format: insert, "loc_a_3", "3"))
    }

    @Test("a store of schema 4 (geography, geohash B-tree) opens as the current schema with the same answers")
    func migratesFromGeography() async throws {
        guard TestStore.kinds.contains(.postgis) else { return }
        let test = try await TestStore.make(.postgis)
        defer { Task { await test.remove() } }
        guard case .postgres(let url) = test.address else { return }
        let locations = Self.hardLocations()
        let store = try await test.address.create()
        for id in ["a", "b"] { try await store.upsertNetwork(Network(id: id, name: id)) }
        _ = try await store.upsert(locations)
        let query = NearbyQuery(center: Coordinate(uncheckedLatitude: 0, longitude: 180), radiusMeters: 30_000, limit: 40)
        let before = try await store.nearby(query).map(\.location.id)
        await store.close()
        // Back to what schema 4 was.
        for sql in [
            "DROP INDEX locations_geom", "ALTER TABLE locations ALTER COLUMN geom TYPE geography(Point, 4326) USING geom::geography",
            "ALTER TABLE locations RENAME COLUMN geom TO geog", "CREATE INDEX locations_geog ON locations USING gist (geog)",
            "CREATE INDEX locations_by_geohash ON locations (geohash)", "UPDATE oncue_meta SET value = '4' WHERE key = 'schema_version'",
            "ALTER TABLE locations DROP CONSTRAINT locations_id_names_network_and_external",
            "ALTER TABLE locations ADD CONSTRAINT locations_network_id_external_id_key UNIQUE (network_id, external_id)",
        ] { try await Admin.run(url, sql) }
        let reopened = try await test.address.open()
        #expect(try await reopened.verify().isEmpty)
        #expect(try await reopened.nearby(query).map(\.location.id) == before)
        #expect(before.count == 40)
        await reopened.close()
        let columns = try await PostGISLocationStore.connect(url, logger: Logger(label: "test"))
        let kinds = try await columns.rows(
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'locations'::regclass AND attname IN ('geom', 'geog')")
        #expect(try kinds.map { try $0.decode(String.self) } == ["geometry(Point,4326)"])
        let indexes = try await columns.rows("SELECT indexname FROM pg_indexes WHERE tablename = 'locations' ORDER BY 1")
        #expect(
            try indexes.map { try $0.decode(String.self) } == [
                "locations_by_change", "locations_geom", "locations_pkey", "locations_with_radius", "locations_with_uncertainty",
            ])
        await columns.close()
    }
}
