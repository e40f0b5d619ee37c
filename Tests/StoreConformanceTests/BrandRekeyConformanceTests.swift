import Foundation
import Geo
import LocationStore
import StoreOpening
import Testing

/// A store whose brand network still has an id in another script (`старбакс`, made when the catalogue named
/// Starbucks by its Serbian entry) is re-keyed when it is opened for writing: the network becomes `starbucks`, its
/// locations follow, and the old id and location ids stay resolvable.
@Suite("Brand networks re-keyed to ASCII on open (SQLite and PostGIS)")
struct BrandRekeyConformanceTests {
    static let here = Coordinate(uncheckedLatitude: 40.75, longitude: -73.99)

    @Test("opening for writing moves a brand network to its ASCII id; the old ids still resolve", arguments: TestStore.kinds)
    func rekeyOnOpen(kind: StoreKind) async throws {
        try await TestStore.with(kind) { store, test in
            try await store.upsertNetwork(Network(id: "старбакс", name: "Старбакс", category: "coffee", wikidata: "Q37158"))
            try await store.upsertNetwork(Network(id: "лавка", name: "Лавка"))  // no Wikidata id: an admin's own, left alone
            _ = try await store.upsert([
                Location(networkId: "старбакс", externalId: "1", name: "Midtown", coordinate: Self.here),
                Location(
                    networkId: "старбакс", externalId: "2", name: "Broadway", coordinate: Sphere.destination(from: Self.here, meters: 900, bearing: 0)
                ),
                Location(networkId: "лавка", externalId: "1", name: "", coordinate: Self.here),
            ])
            // Read-only opens change nothing.
            let reader = try await test.address.open(readOnly: true)
            #expect(try await reader.network(id: "старбакс") != nil)
            await reader.close()

            let reopened = try await test.address.open()
            try await Self.check(reopened)
            await reopened.close()
        }
    }

    static func check(_ reopened: any LocationStore) async throws {
        let starbucks = try #require(try await reopened.network(id: "starbucks"))
        #expect(starbucks.name == "Starbucks" && starbucks.category == "coffee" && starbucks.wikidata == "Q37158")
        #expect(try await reopened.network(id: "старбакс") == nil)
        #expect(try await reopened.locations(networkId: "starbucks").map(\.id).sorted() == ["loc_starbucks_1", "loc_starbucks_2"])
        #expect(try await reopened.resolveNetwork("старбакс") == "starbucks", "the old id is an alias")
        #expect(try await reopened.resolveNetwork("Старбакс") == "starbucks", "so is the old display name")
        #expect(try await reopened.location(resolving: "loc_старбакс_2")?.id == "loc_starbucks_2", "an old location id resolves")
        #expect(try await reopened.location(resolving: "loc_старбакс_9") == nil)
        #expect(try await reopened.network(id: "лавка") != nil, "a network without a brand keeps its id")
        #expect(try await reopened.verify().isEmpty)
        // A second open finds nothing left to do.
        #expect(try await reopened.rekeyBrandNetworks().isEmpty)
    }
}
