import ChainImport
import Foundation
import LocationStore
import SQLiteStore
import TestSupport
import Testing

/// The shared chain files land in the networks their brands have in the catalogue: each brand one network, named as
/// the brand writes itself and carrying its Wikidata id, however the file spells it.
@Suite("Brand catalogue on the shared chains", .serialized, .needsSharedDatasets)
struct BrandCatalogueDatasetTests {
    @Test("Costco, Chipotle and Target by a spelling or a Wikidata id land in their brand's network")
    func fixedNetworks() async throws {
        for (file, network, expected) in [
            ("chain-costco-us/costcos-geocoded.csv", "Costco Wholesale", ("costco", "Q715583")),
            ("chain-chipotle-us/chipotle_stores.csv", "Chipotle Mexican Grill", ("chipotle", "Q465751")),
            ("chain-target-us/target.csv", "Q1046951", ("target", "Q1046951")),
        ] {
            let t = try TempStore()
            let report = try await t.importFiles([try SharedDatasets.path(file)], ImportOptions(network: network))
            let accepted = report.totals.read - report.totals.rejected
            let networks = try t.store.networks()
            #expect(networks.map(\.network.id) == [expected.0], "\(file)")
            #expect(networks.first?.network.wikidata == expected.1, "\(file)")
            #expect(networks.first?.locationCount == accepted, "\(file)")
        }
        // "Target" alone is two brands (the US one and the Australian one): without a place it stays a plain network.
        let t = try TempStore()
        _ = try await t.importFiles([try SharedDatasets.path("chain-target-us/target.csv")], ImportOptions(network: "Target"))
        #expect(try t.store.networks().map { [$0.network.id, $0.network.wikidata ?? "-"] } == [["target", "-"]])
    }

    @Test("the fast-food file's spellings merge into their brands' networks")
    func fastFoodSpellings() async throws {
        let path = try SharedDatasets.path("chain-fastfood-us-datafiniti/FastFoodRestaurants.csv")
        var plain = ImportOptions(networkColumn: "name")
        plain.usesBrandCatalogue = false
        let before = try TempStore()
        _ = try await before.importFiles([path], plain)
        let after = try TempStore()
        _ = try await after.importFiles([path], ImportOptions(networkColumn: "name"))
        let networksBefore = try before.store.networks().count
        let networks = Dictionary(uniqueKeysWithValues: try after.store.networks().map { ($0.network.id, $0.network) })
        // 458 networks without the catalogue, 445 with it (2026-11-26).
        #expect(networks.count < networksBefore, "\(networksBefore) networks without the catalogue, \(networks.count) with")
        // Spellings that differ in words, which slugs and aliases kept apart, are one brand now.
        let countsBefore = Dictionary(uniqueKeysWithValues: try before.store.networks().map { ($0.network.id, $0.locationCount) })
        let countsAfter = Dictionary(uniqueKeysWithValues: try after.store.networks().map { ($0.network.id, $0.locationCount) })
        #expect(countsAfter["sonic"] == countsBefore["sonic-drive-in"]! + countsBefore["sonic"]!)
        #expect(countsAfter["popeyes"] == countsBefore["popeyes"]! + countsBefore["popeyes-louisiana-kitchen"]!)
        // Every row whose spelling the catalogue knows in the US is in that brand's network, which carries its id.
        let rows = try before.snapshot()
        var byExternal: [String: String] = [:]
        for row in rows { byExternal[row.externalId] = row.networkId }
        let spellings = Dictionary(uniqueKeysWithValues: try before.store.networks().map { ($0.network.id, $0.network.name) })
        var inBrands = 0
        for location in try after.snapshot() {
            let spelling = try #require(byExternal[location.externalId].flatMap { spellings[$0] })
            guard let brand = BrandCatalogue.standard.brand(named: spelling, country: "us") else { continue }
            #expect(location.networkId == Network.asciiSlug(brand.name), "\(spelling)")
            #expect(networks[location.networkId]?.wikidata == brand.wikidata, "\(spelling)")
            inBrands += 1
        }
        #expect(inBrands > 8_000)
        #expect(networks["sonic"]?.wikidata == "Q7561808")
        // Ids in the user's script: Baskin-Robbins was `31冰淇淋` when the catalogue named brands by one country's entry.
        let nonASCII = networks.keys.filter { !$0.unicodeScalars.allSatisfy(\.isASCII) }
        #expect(nonASCII.isEmpty, "\(nonASCII)")
        #expect(networks["baskin-robbins"]?.name == "Baskin-Robbins")
    }
}
