import ChainImport
import Foundation
import Geo
import LocationStore
import SQLiteStore
import Testing

/// `LocationEditor` on a store: ids as an import reads them, and what an edit keeps.
@Suite struct LocationEditorTests {
    func store() throws -> TempStore {
        let t = try TempStore()
        try t.store.upsertNetwork(Network(id: "shops", name: "Shops"))
        return t
    }

    func fields(id: String?, lat: Double = 40.75012, lon: Double = -73.99034) -> LocationFields {
        var f = LocationFields()
        f.network = "shops"
        f.id = id
        f.address = "1 Main St"
        f.latitude = lat
        f.longitude = lon
        return f
    }

    @Test("an id is trimmed as an import trims it, and a derived id that exists is refused, not overwritten")
    func idsAsTheImportReadsThem() async throws {
        let t = try store()
        let editor = LocationEditor(store: t.store)
        let padded = try await editor.add(fields(id: " 7\t"))
        #expect(padded.location.id == "loc_shops_7" && padded.outcome == .inserted)
        await #expect(throws: LocationEditor.Failure.exists("loc_shops_7")) { try await editor.add(fields(id: "7")) }
        let derived = try await editor.add(fields(id: ""))
        #expect(derived.location.externalId.hasPrefix("h") && derived.outcome == .inserted)
        await #expect(throws: LocationEditor.Failure.exists(derived.location.id)) { try await editor.add(fields(id: nil)) }
    }

    @Test("an edit that does not move the point keeps the uncertainty its import measured; a move measures it again")
    func editsKeepTheMeasuredUncertainty() async throws {
        let t = try store()
        _ = try t.store.upsert([
            Location(
                networkId: "shops", externalId: "g", name: "Geocoded", coordinate: Coordinate(uncheckedLatitude: 40.75012, longitude: -73.99034),
                positionUncertaintyMeters: 480)
        ])
        let editor = LocationEditor(store: t.store)
        let renamed = try await editor.update("loc_shops_g") { $0.name = "Renamed" }
        #expect(renamed.location.name == "Renamed" && renamed.location.positionUncertaintyMeters == 480)
        #expect(try t.store.location(id: "loc_shops_g")?.positionUncertaintyMeters == 480)
        let moved = try await editor.update("loc_shops_g") { $0.latitude = 40.75112 }
        #expect(moved.location.positionUncertaintyMeters == nil, "a precise new point has none")
    }
}
