import ChainImport
import Foundation
import LocationStore
import SQLiteStore
import Testing

/// A brand network's id is ASCII whatever script the catalogue's entries use; its display name follows the import's
/// language (English by default).
@Suite struct BrandIdScriptTests {
    @Test(
        "asciiSlug transliterates other scripts and folds accents",
        arguments: [
            ("Старбакс", "starbaks"), ("星巴克", "xing-ba-ke"), ("Fazer Café", "fazer-cafe"), ("31冰淇淋", "31bing-qi-lin"),
            ("Chick-fil-A", "chick-fil-a"), ("Arby's", "arbys"),
        ])
    func asciiSlug(name: String, slug: String) {
        #expect(Network.asciiSlug(name) == slug)
        let ascii = Network.asciiSlug(name).unicodeScalars.allSatisfy { $0.isASCII }
        #expect(ascii)
    }

    static let directory = """
        Store Number,Brand,Name,Country,Latitude,Longitude
        1,Starbucks,Midtown,US,40.7500,-73.9900
        2,Starbucks Coffee,Broadway,US,40.7600,-73.9800
        3,Baskin-Robbins,Queens,US,40.7400,-73.9000

        """

    @Test("a global brand gets its English id and name; the language option names it in another script")
    func starbucksIsStarbucks() async throws {
        let english = try TempStore()
        _ = try await english.importText(Self.directory, ImportOptions(networkColumn: "Brand"))
        let networks = Dictionary(uniqueKeysWithValues: try english.store.networks().map { ($0.network.id, $0.network) })
        #expect(Set(networks.keys) == ["starbucks", "baskin-robbins"], "\(networks.keys)")
        #expect(networks["starbucks"]?.name == "Starbucks" && networks["starbucks"]?.wikidata == "Q37158")
        #expect(try english.store.locations(networkId: "starbucks").count == 2)

        var options = ImportOptions(networkColumn: "Brand")
        options.brandLanguage = "ja"
        let japanese = try TempStore()
        _ = try await japanese.importText(Self.directory, options)
        let named = try #require(try japanese.store.network(id: "starbucks"))
        #expect(named.name == "スターバックス", "the id stays ASCII; the display name is the data's language")
        #expect(try japanese.store.resolveNetwork("Starbucks") == "starbucks")
        #expect(try english.store.resolveNetwork("スターバックス") == "starbucks", "other languages' names are aliases")
    }
}
