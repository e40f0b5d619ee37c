import CSQLite
import Foundation
import Geo
import LocationStore
import SQLiteStore
import Testing

/// Writes, transactions, strings, networks, the import log and refusing files that are not stores.
@Suite struct StoreBehaviourTests {
    func location(_ ext: String, network: String = "n", name: String = "Store", lat: Double = 10, lon: Double = 20) -> Location {
        Location(networkId: network, externalId: ext, name: name, coordinate: Coordinate(uncheckedLatitude: lat, longitude: lon))
    }

    @Test func upsertReportsWhatChanged() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let store = try SQLiteLocationStore.create(path: dir.path("s.sqlite"))
        try store.upsertNetwork(Network(id: "n", name: "N"))
        #expect(try store.upsert([location("1"), location("2")]) == [.inserted, .inserted])
        #expect(try store.upsert([location("1"), location("2", name: "Renamed")]) == [.unchanged, .updated])
        #expect(try store.location(id: "loc_n_2")?.name == "Renamed")
        #expect(try store.deleteLocations(ids: ["loc_n_1", "nope"]) == 1)
        #expect(try store.location(id: "loc_n_1") == nil)
        #expect(try store.locationIds(networkId: "n") == ["loc_n_2"])
        // The geometry follows the coordinates on update.
        _ = try store.upsert([location("2", lat: -33.5, lon: 151.25)])
        let moved = try store.nearbyViaSpatiaLiteSQL(
            NearbyQuery(center: Coordinate(uncheckedLatitude: -33.5, longitude: 151.25), radiusMeters: 10, limit: 5))
        #expect(moved.map(\.id) == ["loc_n_2"])
        #expect(try store.verify().isEmpty)
    }

    @Test func aFailedWriteLeavesTheStoreAsItWas() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let store = try SQLiteLocationStore.create(path: dir.path("s.sqlite"))
        try store.upsertNetwork(Network(id: "n", name: "N"))
        _ = try store.upsert([location("keep")])
        // The third row names a network that does not exist: the whole batch is refused.
        #expect(throws: StoreError.unknownNetwork("ghost")) {
            _ = try store.upsert([location("a"), location("b"), location("c", network: "ghost")])
        }
        #expect(try store.stats().locationCount == 1)
        struct Boom: Error {}
        await #expect(throws: Boom.self) {
            try await store.transaction {
                _ = try store.upsert([location("x")])
                try store.upsertNetwork(Network(id: "m", name: "M"))
                throw Boom()
            }
        }
        #expect(try store.stats().locationCount == 1)
        #expect(try store.network(id: "m") == nil)
        #expect(try store.location(id: "loc_n_keep") != nil)
        // Nested transactions roll back to their savepoint only.
        try await store.transaction {
            _ = try store.upsert([location("outer")])
            try? await store.transaction {
                _ = try store.upsert([location("inner")])
                throw Boom()
            }
        }
        #expect(try store.location(id: "loc_n_outer") != nil && store.location(id: "loc_n_inner") == nil)
    }

    @Test func stringsAreStoredExactly() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let store = try SQLiteLocationStore.create(path: dir.path("s.sqlite"))
        try store.upsertNetwork(Network(id: "bibliothèque-🇫🇷", name: "Bibliothèques de Paris — 図書館"))
        let names = [
            "Café Zoë", "710 W CÉSAR CHÁVEZ ST", "DELTA CO PLD – DELTA PUBLIC LIBRARY", "東京都立図書館", "🏪 Store \u{0301}", "  spaced  ",
            "quote \" and ' and \\",
        ]
        for (i, n) in names.enumerated() {
            var l = location("\(i)", network: "bibliothèque-🇫🇷", name: n)
            l.address = n + " addr"
            _ = try store.upsert([l])
            let back = try #require(try store.location(id: l.id))
            #expect(back.name.utf8.elementsEqual(n.utf8) && back.address == n + " addr" && back == l)
        }
        #expect(try store.networks().first?.network.name == "Bibliothèques de Paris — 図書館")
    }

    @Test func networksAndAliases() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let store = try SQLiteLocationStore.create(path: dir.path("s.sqlite"))
        try store.upsertNetwork(Network(id: "sonic", name: "Sonic Drive-In", category: "fast-food"))
        for alias in ["SONIC Drive In", "Sonic Drive-In", "SONIC"] { try store.addAlias(alias, networkId: "sonic") }
        #expect(try store.resolveNetwork("sonic drive-in") == "sonic")
        #expect(try store.resolveNetwork("Sonic Drivein") == "sonic")
        #expect(try store.resolveNetwork("Sonic") == "sonic")
        #expect(try store.resolveNetwork("Wendy's") == nil)
        #expect(throws: StoreError.unknownNetwork("nope")) { try store.addAlias("x", networkId: "nope") }
        #expect(throws: StoreError.self) { try store.upsertNetwork(Network(id: "bad", name: "B", defaultRadiusMeters: -5)) }
        let summary = try store.networks()
        // "SONIC Drive In" and "Sonic Drive-In" are one alias key.
        #expect(summary.count == 1 && summary[0].aliases.count == 2 && summary[0].network.category == "fast-food")
    }

    @Test func importLogRoundTrip() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let store = try SQLiteLocationStore.create(path: dir.path("s.sqlite"))
        var record = ImportRecord(
            fileName: "costco.csv", fileSize: 31_537, sha256: "abc", encoding: "utf-8",
            options: ["network": "costco"], startedAt: Date(timeIntervalSince1970: 1_700_000_000), status: "running")
        let id = try store.insertImport(record)
        record.id = id
        record.status = "committed"
        record.finishedAt = Date(timeIntervalSince1970: 1_700_000_005)
        record.counts = ImportCounts(read: 417, inserted: 416, rejected: 1, warned: 2)
        record.issues = [
            ImportIssue(line: 300, severity: .rejected, code: "duplicate_in_file", message: "same as line 299"),
            ImportIssue(line: 12, severity: .warning, code: "far_from_state", message: "…", externalId: "x"),
        ]
        try store.updateImport(record)
        let back = try #require(try store.importRecord(id: id))
        #expect(back.counts == record.counts && back.status == "committed" && back.options == ["network": "costco"])
        #expect(back.issues.map(\.line) == [12, 300])
        #expect(try store.imports(limit: 10).map(\.id) == [id])
        #expect(try store.stats().importCount == 1)
    }

    @Test func schemaAndJournal() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let path = dir.path("s.sqlite")
        _ = try SQLiteLocationStore.create(path: path)
        var db: OpaquePointer?
        sqlite3_open(path, &db)
        defer { sqlite3_close(db) }
        func scalar(_ sql: String) -> String {
            var s: OpaquePointer?
            sqlite3_prepare_v2(db, sql, -1, &s, nil)
            defer { sqlite3_finalize(s) }
            return sqlite3_step(s) == SQLITE_ROW ? String(cString: sqlite3_column_text(s, 0)) : ""
        }
        #expect(scalar("PRAGMA journal_mode") == "wal")
        // Set before the first page was written; a store made by an older version keeps SQLite's 4 KiB.
        #expect(scalar("PRAGMA page_size") == "8192")
        #expect(scalar("PRAGMA user_version") == String(SQLiteSchemaInfo.currentVersion))
        #expect(scalar("PRAGMA application_id") == String(SQLiteSchemaInfo.applicationId))
        #expect(scalar("SELECT srid FROM geometry_columns WHERE f_table_name = 'locations'") == "4326")
        #expect(scalar("SELECT count(*) FROM sqlite_master WHERE name = 'locations_by_geohash'") == "1")
    }

    /// Bytes and modification time of a file, to prove nothing was written.
    func fingerprint(_ path: String) throws -> (Data, Date) {
        (try Data(contentsOf: URL(fileURLWithPath: path)), try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as! Date)
    }

    @Test func refusesFilesThatAreNotStoresAndWritesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        #expect(throws: StoreError.fileNotFound(path: dir.path("missing.sqlite"))) { _ = try SQLiteLocationStore(path: dir.path("missing.sqlite")) }
        #expect(!FileManager.default.fileExists(atPath: dir.path("missing.sqlite")))

        let text = dir.path("notes.txt")
        try Data("hello, not a database\n".utf8).write(to: URL(fileURLWithPath: text))
        let before = try fingerprint(text)
        #expect(throws: StoreError.notSQLite(path: text)) { _ = try SQLiteLocationStore(path: text) }
        #expect(try fingerprint(text) == before)

        let other = dir.path("other.sqlite")
        var db: OpaquePointer?
        sqlite3_open(other, &db)
        sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES (1);", nil, nil, nil)
        sqlite3_close(db)
        let otherBefore = try fingerprint(other)
        #expect(throws: StoreError.notOnCueStore(path: other)) { _ = try SQLiteLocationStore(path: other) }
        #expect(try fingerprint(other) == otherBefore)
        #expect(!FileManager.default.fileExists(atPath: other + "-wal"))

        let newer = dir.path("newer.sqlite")
        _ = try SQLiteLocationStore.create(path: newer)
        sqlite3_open(newer, &db)
        sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA user_version = 99; PRAGMA journal_mode = DELETE;", nil, nil, nil)
        sqlite3_close(db)
        let newerBefore = try fingerprint(newer)
        #expect(throws: StoreError.newerSchema(path: newer, found: 99, supported: SQLiteSchemaInfo.currentVersion)) {
            _ = try SQLiteLocationStore(path: newer)
        }
        #expect(try fingerprint(newer) == newerBefore)
        #expect(throws: StoreError.alreadyExists(path: newer)) { _ = try SQLiteLocationStore.create(path: newer) }
        #expect(StoreError.newerSchema(path: "x", found: 99, supported: 1).description.contains("99"))
    }
}

@Suite("Network slugs")
struct NetworkSlugTests {
    @Test("punctuation joins words, apostrophes vanish, accents fold, other scripts stay")
    func slugs() {
        #expect(Network.slug("Chick-fil-A") == "chick-fil-a")
        #expect(Network.slug("  SONIC Drive In ") == "sonic-drive-in")
        #expect(Network.slug("Arby's") == "arbys")
        #expect(Network.slug("Robert's Coffee") == "roberts-coffee")
        #expect(Network.slug("Fazer Café") == "fazer-cafe")
        #expect(Network.slug("Crème Brûlée Bakery") == "creme-brulee-bakery")
        #expect(Network.slug("スターバックス 渋谷") == "スターバックス-渋谷")
        #expect(Network.slug("!!!") == "")
        // A slug is its own slug: the admin API checks ids that way.
        for name in ["Fazer Café", "スターバックス 渋谷", "7-Eleven"] { #expect(Network.slug(Network.slug(name)) == Network.slug(name)) }
    }
}

/// What a caller above the SQLite store sees of SQLite's results: cases that say what happened, not SQLite's numbers.
@Suite("Store errors")
struct StoreErrorTests {
    @Test func aWriteThroughAReadOnlyStoreIsReadOnly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-ro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        _ = try SQLiteLocationStore.create(path: path)
        let reader = try SQLiteLocationStore(path: path, readOnly: true)
        let error = #expect(throws: StoreError.self) { try reader.upsertNetwork(Network(id: "acme", name: "Acme")) }
        guard case .readOnly = error else {
            Issue.record("expected .readOnly, got \(String(describing: error))")
            return
        }
    }
}
