import LocationStore
import Testing

/// Names that could pass for another network's: bidirectional controls, scripts mixed within a word, and ids whose
/// Unicode TS #39 skeleton is another id's.
@Suite("Network text rule")
struct NetworkTextTests {
    @Test(arguments: ["costco", "Costco Wholesale", "Fazer Café", "東京ガス", "スターバックス", "Москва", "Costco Москва", "7-Eleven", "ΑΒΓ Market"])
    func accepted(name: String) {
        #expect(NetworkText.problem(name) == nil, "\(name): \(NetworkText.problem(name) ?? "")")
    }

    @Test(arguments: ["соstco", "Сostco Wholesale", "\u{202E}octsoc", "cost\u{200F}co", "pαypal", "Acme\u{1B}[31m", "Acme\nCorp"])
    func refused(name: String) {
        #expect(NetworkText.problem(name) != nil, "\(name) passed")
    }

    @Test func skeletonsFindLookAlikes() {
        // Cyrillic с and о, Greek ο, and digit 0 against the Latin id.
        #expect(NetworkText.skeleton("соstco") == NetworkText.skeleton("costco"))
        #expect(NetworkText.skeleton("cοstco") == NetworkText.skeleton("costco"))
        #expect(NetworkText.lookAlike(of: "соstco", among: ["target", "costco"]) == "costco")
        #expect(NetworkText.lookAlike(of: "costco", among: ["costco", "target"]) == nil, "itself is no look-alike")
        #expect(NetworkText.lookAlike(of: "costco-gas", among: ["costco"]) == nil)
        #expect(NetworkText.hasBidiControl("a\u{2066}b") && !NetworkText.hasBidiControl("abc"))
    }
}
