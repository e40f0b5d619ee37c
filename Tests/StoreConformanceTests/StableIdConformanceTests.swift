import ChainImport
import Foundation
import Geo
import PostGISStore
import StoreOpening
import Testing

@testable import LocationStore
@testable import SQLiteStore

/// Ids that never depend on a display name: renaming a network and importing its file again finds the same rows, and
/// a store keyed by the old rule (the name first, the network's display name for a file without a name column) is
/// re-keyed when it is opened.
@Suite("Stable ids (SQLite and PostGIS)")
struct StableIdConformanceTests {
    /// Costco's file shape: no id and no name column.
    static let nameless = """
        address,city,state,zip,lat,lon
        450 10th St,San Francisco,CA,94103,37.770012,-122.413012
        1600 S Delaware St,San Mateo,CA,94402,37.551234,-122.309876
        2300 Middlefield Rd,Redwood City,CA,94063,37.481234,-122.223456

        """

    static func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-stable-\(UUID().uuidString).csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("import, rename the network, add an alias, import again: every row unchanged, the same rows", arguments: TestStore.kinds)
    func renameKeepsIds(kind: StoreKind) async throws {
        let path = try Self.write(Self.nameless)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await TestStore.with(kind) { store, _ in
            let first = try await ImportConformanceTests.importing(store, [path], ImportOptions(network: "costco"))
            #expect(first.totals.inserted == 3)
            let before = try await ImportConformanceTests.snapshot(store)
            #expect(before.allSatisfy { $0.name.isEmpty }, "a row without a name of its own stores none")
            try await store.upsertNetwork(Network(id: "costco", name: "Costco Wholesale", category: "wholesale"))
            try await store.addAlias("Costco Warehouse", networkId: "costco")
            let again = try await ImportConformanceTests.importing(store, [path], ImportOptions(network: "costco"))
            #expect(again.totals == ImportCounts(read: 3, unchanged: 3))
            #expect(try await ImportConformanceTests.snapshot(store) == before)
        }
    }

    @Test("a store keyed by the old rule is re-keyed on open: the doubles a rename made are one row, the log kept", arguments: TestStore.kinds)
    func migrationRekeys(kind: StoreKind) async throws {
        let point = Coordinate(uncheckedLatitude: 37.770012, longitude: -122.413012)
        let other = Coordinate(uncheckedLatitude: 37.551234, longitude: -122.309876)
        func legacy(_ name: String, _ address: String, _ c: Coordinate, importId: Int64) -> Location {
            Location(
                networkId: "costco", externalId: StableId.Legacy.derive(name: name, address: address, latitude: c.latitude, longitude: c.longitude),
                name: name, address: address, coordinate: c, sourceImportId: importId)
        }
        let geocodedId = StableId.Legacy.derive(name: "Costco", address: "9 Main St", city: "Reno", postalCode: "89501")
        try await TestStore.with(kind) { store, test in
            try await store.upsertNetwork(Network(id: "costco", name: "Costco Wholesale"))
            let log = try await store.insertImport(
                ImportRecord(fileName: "costcos.csv", fileSize: 1, sha256: "x", startedAt: Date(), status: "committed"))
            _ = try await store.upsert([
                // The same warehouse imported as "Costco", then again after the rename: two legacy ids.
                legacy("Costco", "450 10th St", point, importId: 1),
                legacy("Costco Wholesale", "450 10th St", point, importId: 2),
                legacy("Costco", "1600 S Delaware St", other, importId: 1),
                Location(
                    networkId: "costco", externalId: geocodedId, name: "Costco", address: "9 Main St", city: "Reno", postalCode: "89501",
                    coordinate: Coordinate(uncheckedLatitude: 39.52, longitude: -119.81)),
                // An id from the file's own id column stays whatever it looks like.
                Location(networkId: "costco", externalId: "store-7", name: "Costco", coordinate: Coordinate(uncheckedLatitude: 40, longitude: -75)),
            ])
            try await Self.markLegacy(store, test)
            await store.close()
            let reopened = try await test.address.open()
            let rows = try await ImportConformanceTests.snapshot(reopened)
            #expect(rows.count == 4)
            let ids = Set(rows.map(\.externalId))
            #expect(ids.contains(StableId.derive(address: "450 10th St", latitude: point.latitude, longitude: point.longitude)))
            #expect(ids.contains(StableId.derive(address: "1600 S Delaware St", latitude: other.latitude, longitude: other.longitude)))
            #expect(ids.contains(StableId.derive(address: "9 Main St", city: "Reno", postalCode: "89501")))
            #expect(ids.contains("store-7"))
            // Of the two, the one written last stays.
            #expect(rows.first { $0.address == "450 10th St" }?.name == "Costco Wholesale")
            #expect(try await reopened.importRecord(id: log)?.fileName == "costcos.csv")
            #expect(try await reopened.verify().isEmpty)
            await reopened.close()
        }
    }

    /// Sets the store's schema version back to the one before the re-keying.
    static func markLegacy(_ store: any LocationStore, _ test: TestStore) async throws {
        switch test.address {
        case .postgres(let url):
            try await Admin.run(url, "UPDATE oncue_meta SET value = '1' WHERE key = 'schema_version'")
        default:
            let sqlite = try #require(store as? SQLiteLocationStore)
            try sqlite.db.execute("PRAGMA user_version = 2")
        }
    }
}
