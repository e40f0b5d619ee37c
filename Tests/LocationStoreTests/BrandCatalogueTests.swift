import Testing

@testable import LocationStore

/// The compiled-in catalogue against the name-suggestion-index's own entries (read from its brand files by hand).
@Suite("Brand catalogue")
struct BrandCatalogueTests {
    let catalogue = BrandCatalogue.standard

    @Test("it holds every brand of the generated file, each by its Wikidata id")
    func whole() throws {
        #expect(catalogue.brands.count == 13_852)
        #expect(catalogue.brand(wikidata: "Q38076")?.name == "McDonald's")
        #expect(catalogue.brand(wikidata: "Q715583")?.name == "Costco")
        #expect(catalogue.brand(wikidata: "Q0") == nil)
    }

    @Test("spellings resolve to the brand, ignoring case, accents, spaces and punctuation")
    func spellings() {
        for spelling in ["McDonald's", "McDonalds", "mc donald's", "MCDONALDS"] {
            #expect(catalogue.brand(named: spelling, country: "us")?.wikidata == "Q38076", "\(spelling)")
        }
        #expect(catalogue.brand(named: "Chipotle Mexican Grill", country: "us")?.wikidata == "Q465751")
        #expect(catalogue.brand(named: "Hesburger", country: "fi")?.wikidata == "Q1276832")
        #expect(catalogue.brand(named: "no such brand anywhere", country: "us") == nil)
    }

    @Test("one name, two brands: where the row stands decides, and without a place nothing is guessed")
    func locationSets() {
        #expect(catalogue.brand(named: "Target", country: "us")?.wikidata == "Q1046951")
        #expect(catalogue.brand(named: "Target", country: "au")?.wikidata == "Q7685854")
        #expect(catalogue.brand(named: "Target", country: nil) == nil)
        #expect(catalogue.brand(named: "Target", country: "fi") == nil)
        // Hesburger operates worldwide except in Poland.
        #expect(catalogue.brand(named: "Hesburger", country: "pl") == nil)
    }
}
