import Foundation
import Geo
import LocationStore
import PostGISStore
import StoreOpening
import SyntheticData
import Testing

/// Everything a store promises, on both stores: the same calls give the same answers.
@Suite("Store conformance (SQLite and PostGIS)")
struct StoreConformanceTests {
    static func location(_ network: String, _ ext: String, _ lat: Double, _ lon: Double, name: String? = nil) -> Location {
        Location(
            networkId: network, externalId: ext, name: name ?? "\(network) \(ext)", address: "\(ext) Main St",
            coordinate: Coordinate(uncheckedLatitude: lat, longitude: lon))
    }

    @Test("a store is created once, reopened, and a second create is refused", arguments: TestStore.kinds)
    func createAndReopen(kind: StoreKind) async throws {
        try await TestStore.with(kind) { store, test in
            try await store.upsertNetwork(Network(id: "acme", name: "Acme"))
            await #expect(throws: StoreError.self) { _ = try await test.address.create() }
            let again = try await test.address.open()
            #expect(try await again.network(id: "acme")?.name == "Acme")
            await again.close()
        }
    }

    @Test("networks: upsert, rename, counts and aliases; an alias resolves, an unknown network is refused", arguments: TestStore.kinds)
    func networks(kind: StoreKind) async throws {
        try await TestStore.with(kind) { store, _ in
            try await store.upsertNetwork(Network(id: "costco", name: "Costco", category: "wholesale"))
            try await store.upsertNetwork(Network(id: "sfpl", name: "SF Library", category: "library", defaultRadiusMeters: 150))
            try await store.upsertNetwork(Network(id: "costco", name: "Costco Wholesale", category: "wholesale", isLargeArea: true))
            try await store.addAlias("COSTCO Wholesale #1", networkId: "costco")
            try await store.addAlias("Costco Wholesale", networkId: "costco")
            _ = try await store.upsert([Self.location("costco", "1", 37.77, -122.41), Self.location("costco", "2", 37.35, -121.93)])
            let list = try await store.networks()
            #expect(list.map(\.network.id) == ["costco", "sfpl"])
            #expect(list[0].network.name == "Costco Wholesale" && list[0].network.isLargeArea && list[0].locationCount == 2)
            #expect(list[0].aliases == ["COSTCO Wholesale #1", "Costco Wholesale"])
            #expect(list[1].network.defaultRadiusMeters == 150 && list[1].locationCount == 0)
            #expect(try await store.resolveNetwork("costco wholesale") == "costco")
            #expect(try await store.resolveNetwork("sfpl") == "sfpl")
            #expect(try await store.resolveNetwork("nobody") == nil)
            await #expect(throws: StoreError.unknownNetwork("nope")) { try await store.addAlias("x", networkId: "nope") }
            await #expect(throws: StoreError.unknownNetwork("nope")) { _ = try await store.upsert([Self.location("nope", "1", 1, 1)]) }
        }
    }

    @Test("an alias that spells another network's id is refused (it would shadow that network); its own id is fine", arguments: TestStore.kinds)
    func aliasShadowingAnotherNetwork(kind: StoreKind) async throws {
        try await TestStore.with(kind) { store, _ in
            try await store.upsertNetwork(Network(id: "costco", name: "Costco"))
            try await store.upsertNetwork(Network(id: "chick-fil-a", name: "Chick-fil-A"))
            for (spelling, target) in [("costco", "chick-fil-a"), ("COSTCO", "chick-fil-a"), ("Cost-Co!", "chick-fil-a"), ("ChickFilA", "costco")] {
                do {
                    try await store.addAdminAlias(spelling, networkId: target)
                    Issue.record("the alias '\(spelling)' of \(target) was taken")
                } catch StoreError.conflict(let message) {
                    #expect(message.contains("shadow"), "\(message)")
                }
            }
            try await store.addAlias("Costco Wholesale", networkId: "costco")
            try await store.addAlias("COSTCO", networkId: "costco")
            let aliases = try await store.networks().first { $0.network.id == "chick-fil-a" }?.aliases
            #expect(aliases == [])
        }
    }

    @Test("locations: inserted, unchanged, updated; read back, listed, deleted", arguments: TestStore.kinds)
    func locations(kind: StoreKind) async throws {
        try await TestStore.with(kind) { store, _ in
            try await store.upsertNetwork(Network(id: "n", name: "N"))
            var a = Self.location("n", "a", 40.1234567, -74.7654321)
            a.city = "Trenton"
            a.radiusMeters = 75
            a.venueRadiusMeters = 120.5
            // No address, and a name beyond ASCII: the index records read both back as they were written.
            var b = Self.location("n", "b", -33.8688, 151.2093, name: "Café Ünïcode 東京 #2")
            b.address = nil
            #expect(try await store.upsert([a, b]) == [.inserted, .inserted])
            #expect(try await store.upsert([a, b]) == [.unchanged, .unchanged])
            var moved = a
            moved.coordinate = Coordinate(uncheckedLatitude: 40.2, longitude: -74.8)
            moved.sourceImportId = 7
            #expect(try await store.upsert([moved, b]) == [.updated, .unchanged])
            #expect(try await store.location(id: a.id) == moved)
            #expect(try await store.locationIds(networkId: "n") == [a.id, b.id])
            var all: [Location] = []
            try await store.forEachLocation(batchSize: 1) { all += $0 }
            #expect(all.sorted { $0.id < $1.id } == [moved, b])
            var records: [IndexRecord] = []
            try await store.forEachIndexRecord(batchSize: 7) { records += $0 }
            #expect(Set(records) == Set([IndexRecord(moved), IndexRecord(b)]))
            #expect(try await store.deleteLocations(ids: [b.id, "missing"]) == 1)
            #expect(try await store.location(id: b.id) == nil)
            let stats = try await store.stats()
            #expect(stats.locationCount == 1 && stats.networkCounts.map(\.count) == [1])
            // Stores differ here on purpose: a file's size against a database's, and each store's own schema numbering.
            #expect((stats.fileSizeBytes ?? 0) > 0 && stats.schemaVersion >= 1)
            #expect(stats.bounds == GeoBox(minLatitude: 40.2, maxLatitude: 40.2, minLongitude: -74.8, maxLongitude: -74.8))
        }
    }

    @Test("nearby: the limit nearest within the radius, ties by id, against brute force", arguments: TestStore.kinds)
    func nearbyMatchesBruteForce(kind: StoreKind) async throws {
        try await TestStore.with(kind) { store, _ in
            let spec = SyntheticLocations(count: 4_000, seed: 17, networkCount: 6, clusterCount: 12)
            for network in spec.networks { try await store.upsertNetwork(network) }
            var locations = Array(spec)
            // Two at exactly the same point: the tie goes to the smaller id.
            locations.append(Self.location(spec.networks[0].id, "twin-b", locations[0].coordinate.latitude, locations[0].coordinate.longitude))
            locations.append(Self.location(spec.networks[0].id, "twin-a", locations[0].coordinate.latitude, locations[0].coordinate.longitude))
            _ = try await store.upsert(locations)
            var rng = SeededRandom(seed: 3)
            for q in 0..<60 {
                let near = locations[Int.random(in: 0..<locations.count, using: &rng)].coordinate
                let center =
                    q == 0
                    ? near : Sphere.destination(from: near, meters: .random(in: 0...20_000, using: &rng), bearing: .random(in: 0..<360, using: &rng))
                let networks: Set<String>? = q % 3 == 0 ? [spec.networks[q % spec.networks.count].id] : nil
                let query = NearbyQuery(center: center, radiusMeters: [500, 5_000, 50_000][q % 3], limit: [1, 20, 50][q % 3], networks: networks)
                var want: [(id: String, distance: Double)] = []
                for l in locations where networks?.contains(l.networkId) ?? true {
                    let d = Sphere.distance(center, l.coordinate)
                    if d <= query.radiusMeters { want.append((l.id, d)) }
                }
                want.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.id < $1.id }
                want = Array(want.prefix(query.limit))
                let got = try await store.nearby(query)
                #expect(got.map(\.location.id) == want.map(\.id), "query \(q)")
                for (g, w) in zip(got, want) { #expect(abs(g.distanceMeters - w.distance) < 1e-6) }
            }
        }
    }

    @Test("the import log: records, issues in line order, updates", arguments: TestStore.kinds)
    func importLog(kind: StoreKind) async throws {
        try await TestStore.with(kind) { store, _ in
            let started = Date(timeIntervalSince1970: 1_764_000_000)
            var record = ImportRecord(
                fileName: "a.csv", fileSize: 10, sha256: "00", options: ["network": "n"], startedAt: started,
                status: "running",
                issues: [
                    ImportIssue(line: 9, severity: .warning, code: "near_duplicate", message: "9"),
                    ImportIssue(line: 3, severity: .rejected, code: "out_of_range", message: "3", externalId: "x"),
                ])
            record.id = try await store.insertImport(record)
            record.status = "committed"
            record.finishedAt = started.addingTimeInterval(2)
            record.counts = ImportCounts(read: 5, inserted: 3, rejected: 1, warned: 1)
            record.coordinatePrecision = PrecisionDiagnosis(
                coarseRows: 1, rowsWithCoordinates: 4, share: 0.25, typicalDecimals: 2,
                errorMeters: 700, fileGridDecimals: nil, advice: "geocode")
            try await store.updateImport(record)
            let id = try #require(record.id)
            let back = try #require(try await store.importRecord(id: id))
            #expect(back.issues.map(\.line) == [3, 9] && back.issues[0].externalId == "x")
            #expect(back.counts == record.counts && back.status == "committed" && back.options == ["network": "n"])
            #expect(back.startedAt == started && back.finishedAt == record.finishedAt)
            #expect(back.coordinatePrecision == record.coordinatePrecision)
            let second = try await store.insertImport(ImportRecord(fileName: "b.csv", fileSize: 1, sha256: "", startedAt: started, status: "failed"))
            #expect(try await store.imports(limit: 10, before: nil).map(\.id) == [second, id])
            #expect(try await store.imports(limit: 1, before: nil).count == 1)
        }
    }

    @Test("a failed transaction leaves the store as it was; a nested one rolls back alone", arguments: TestStore.kinds)
    func transactions(kind: StoreKind) async throws {
        struct Boom: Error {}
        try await TestStore.with(kind) { store, _ in
            try await store.upsertNetwork(Network(id: "n", name: "N"))
            await #expect(throws: Boom.self) {
                try await store.transaction {
                    _ = try await store.upsert([Self.location("n", "1", 10, 10)])
                    throw Boom()
                }
            }
            #expect(try await store.location(id: "loc_n_1") == nil)
            try await store.transaction {
                _ = try await store.upsert([Self.location("n", "2", 10, 10)])
                try? await store.transaction {
                    _ = try await store.upsert([Self.location("n", "3", 11, 11)])
                    throw Boom()
                }
            }
            let kept = try await store.location(id: "loc_n_2")
            let undone = try await store.location(id: "loc_n_3")
            #expect(kept != nil && undone == nil)
            #expect(try await store.verify() == [])
        }
    }

    @Test(
        "one change version per transaction: a nested rollback keeps the bump made before it and gives back its own",
        arguments: TestStore.kinds)
    func changeVersionsOfNestedTransactions(kind: StoreKind) async throws {
        struct Boom: Error {}
        try await TestStore.with(kind) { store, _ in
            try await store.upsertNetwork(Network(id: "n", name: "N"))
            let v0 = try await store.trackedVersion()
            // The outer transaction takes the next version with its first change; the savepoint after it is undone
            // and the version stays the transaction's.
            try await store.transaction {
                _ = try await store.upsert([Self.location("n", "a", 10, 10)])
                try? await store.transaction {
                    _ = try await store.upsert([Self.location("n", "b", 10.1, 10)])
                    throw Boom()
                }
                _ = try await store.upsert([Self.location("n", "c", 10.2, 10)])
            }
            let v1 = try await store.trackedVersion()
            #expect(v1 == v0 + 1)
            let first = try #require(try await store.changes(since: v0, limit: 100))
            #expect(Set(first.upserted.map(\.id)) == ["loc_n_a", "loc_n_c"])
            // Here the version is taken inside the savepoint and given back with it: the change after it takes one
            // again, so a reader at v1 sees it.
            try await store.transaction {
                try? await store.transaction {
                    _ = try await store.upsert([Self.location("n", "d", 10.3, 10)])
                    throw Boom()
                }
                _ = try await store.upsert([Self.location("n", "e", 10.4, 10)])
            }
            let v2 = try await store.trackedVersion()
            #expect(v2 == v1 + 1)
            let second = try #require(try await store.changes(since: v1, limit: 100))
            #expect(second.upserted.map(\.id) == ["loc_n_e"])
        }
    }
}

@Suite("PostGIS store: refusals", .enabled(if: TestStore.kinds.contains(.postgis)))
struct PostGISRefusalTests {
    @Test("a database with tables of its own is not an OnCue store; a newer schema is refused; neither is touched")
    func refusals() async throws {
        let test = try await TestStore.make(.postgis)
        defer { Task { await test.remove() } }
        guard case .postgres(let url) = test.address else { return }
        try await PostGISLocationStore.execute(on: url, "CREATE TABLE customers (id int)")
        await #expect(throws: StoreError.notOnCueDatabase(url.description)) { _ = try await test.address.open() }
        await #expect(throws: StoreError.notOnCueDatabase(url.description)) { _ = try await test.address.create() }
        try await PostGISLocationStore.execute(on: url, "DROP TABLE customers")
        let store = try await test.address.create()
        await store.close()
        try await PostGISLocationStore.execute(on: url, "UPDATE oncue_meta SET value = '99' WHERE key = 'schema_version'")
        await #expect(throws: StoreError.newerSchema(path: url.description, found: 99, supported: 10)) { _ = try await test.address.open() }
        // Passwords never show: the URL's description hides one.
        let secret = try PostgresURL("postgres://oncue:s3cret@127.0.0.1:1/x?sslmode=disable")
        #expect(!secret.description.contains("s3cret") && secret.description.contains("***"))
        await #expect(throws: StoreError.self) { _ = try await StoreAddress.postgres(secret).open() }
        do { _ = try await StoreAddress.postgres(secret).open() } catch { #expect(!"\(error)".contains("s3cret")) }
    }
}
