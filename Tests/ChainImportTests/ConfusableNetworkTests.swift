import ChainImport
import Foundation
import LocationStore
import SQLiteStore
import Testing

/// A brand column cannot create a network that passes for another: a look-alike of an existing id, a word mixing
/// scripts, a bidirectional control. Made an alias of the network it means, the same spelling imports into it.
@Suite("Confusable network names in imports")
struct ConfusableNetworkTests {
    @Test("Cyrillic 'Соstco' beside Costco is rejected confusable_network; as an alias it reaches costco")
    func lookAlike() async throws {
        let t = try TempStore()
        // "Соstco": Cyrillic С and о.
        let text = "id,brand,lat,lon\n1,Costco,40.710123,-74.010456\n2,Соstco,40.720789,-74.020321\n3,\u{202E}octsoc,40.730654,-74.030987\n"
        let r = try await t.importText(text, ImportOptions(networkColumn: "brand"))
        #expect(r.totals.inserted == 1)
        #expect(r.files[0].rejectedByReason == ["confusable_network": 2])
        #expect(r.files[0].issues.first?.message.contains("looks like the existing 'costco'") == true)
        #expect(try t.store.networks().map(\.network.id) == ["costco"])
        try t.store.addAlias("Соstco", networkId: "costco")
        let again = try await t.importText(text, ImportOptions(networkColumn: "brand"))
        #expect(again.totals.inserted == 1 && again.totals.unchanged == 1 && again.totals.rejected == 1)
    }

    @Test("a look-alike of a network the store already has is refused too, and a fixed --network look-alike fails the import")
    func againstTheStore() async throws {
        let t = try TempStore()
        try t.store.upsertNetwork(Network(id: "target", name: "Target"))
        let r = try await t.importText("id,brand,lat,lon\n1,Tаrget,40.710123,-74.010456\n", ImportOptions(networkColumn: "brand"))
        #expect(r.files[0].rejectedByReason == ["confusable_network": 1])
        await #expect(throws: ImportError.self) {
            try await t.importText("id,lat,lon\n1,40.710123,-74.010456\n", ImportOptions(network: "Tаrget"))
        }
    }
}
