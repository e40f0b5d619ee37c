import Foundation
import LocationStore
import Testing

@testable import ChainImport

/// A mapping file's `network_patterns`: chains recognised by how their stores are named, in CSV and GeoJSON alike.
@Suite struct NetworkPatternsTests {
    /// The Finnish grocery chains as OpenStreetMap names their stores; the specific spelling first.
    static let groceries = NetworkPatterns(
        match: ["brand", "name"],
        rules: [
            .init(pattern: #"k-?\s*supermarket"#, network: "K-Supermarket"),
            .init(pattern: #"k-?\s*market"#, network: "K-Market"),
            .init(pattern: #"alepa\b"#, network: "Alepa"),
        ],
        unmatched: .reject)

    static func options(_ patterns: NetworkPatterns, columns: [String: MappingFile.ColumnSpec] = [:]) -> ImportOptions {
        var options = ImportOptions()
        options.mapping = MappingFile(columns: columns, networkPatterns: patterns)
        return options
    }

    static func networks(_ tmp: TempStore) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try tmp.snapshot().map { ($0.externalId, $0.networkId) })
    }

    @Test func csvRowsTakeTheFirstRuleMatchingTheFirstColumnThatMatches() async throws {
        let tmp = try TempStore()
        let report = try await tmp.importText(
            """
            id,name,brand,latitude,longitude
            1,K-Supermarket Kamppi,,60.1690,24.9330
            2,k market Kamppi,,60.1691,24.9331
            3,Alepa Fredrikinkatu,,60.1692,24.9332
            4,Alepala Bar,,60.1693,24.9333
            5,Kesko shop,K-Market,60.1694,24.9334
            6,Ravintola Kaisaniemi,,60.1695,24.9335
            7,The Alepa,,60.1696,24.9336
            """, Self.options(Self.groceries))
        #expect(try Self.networks(tmp) == ["1": "k-supermarket", "2": "k-market", "3": "alepa", "5": "k-market"])
        let file = report.files[0]
        // `\b` keeps Alepala out; the match is at the value's start, so "The Alepa" is not one.
        #expect(file.rejectedByReason == [ReasonCode.unmatchedNetwork.rawValue: 3])
        #expect(file.issues.filter { $0.code == ReasonCode.unmatchedNetwork.rawValue }.map(\.line) == [5, 7, 8])
    }

    @Test func unmatchedRowsKeepTheirNetworkColumnUnlessTheRulesRejectThem() async throws {
        var keep = Self.groceries
        keep.unmatched = nil
        keep.match = nil  // the network column: here the brand column by its header
        let tmp = try TempStore()
        try await tmp.importText(
            """
            id,name,brand,latitude,longitude
            1,Kamppi,K-market,60.1690,24.9330
            2,Kaisaniemi,Ravintola Kaisaniemi,60.1691,24.9331
            3,K-Market Kamppi,,60.1692,24.9332
            """, Self.options(keep))
        // Row 3 has no brand and `match` defaults to the network column, so its name is not tried: missing_network.
        #expect(try Self.networks(tmp) == ["1": "k-market", "2": "ravintola-kaisaniemi"])
    }

    @Test func geojsonPropertiesAreTriedInTurnAndTheRuleOverridesABrandWikidata() async throws {
        let tmp = try TempStore()
        func feature(_ id: Int, _ properties: String) -> String {
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[24.93\#(id),60.16\#(id)]},"properties":{"@type":"node","@id":\#(id),\#(properties)}}"#
        }
        let text = [
            feature(1, #""name":"K-Market Kamppi","shop":"supermarket""#),
            feature(2, #""brand":"Kesko","name":"K-Supermarket Kamppi""#),
            feature(3, #""name":"Ravintola Kaisaniemi""#),
            // A wrong brand:wikidata (Alepa's would be Q4716167): the admin's rule decides.
            feature(4, #""brand":"Alepa","brand:wikidata":"Q1571400","name":"Alepa Kamppi""#),
        ].joined(separator: "\n")
        let report = try await tmp.importText(text, name: "places.geojsonseq", Self.options(Self.groceries))
        #expect(try Self.networks(tmp) == ["node/1": "k-market", "node/2": "k-supermarket", "node/4": "alepa"])
        #expect(report.files[0].rejectedByReason == [ReasonCode.unmatchedNetwork.rawValue: 1])
    }

    @Test func aMappingFileWithBadPatternsOrColumnsIsRefusedBeforeAnyRow() async throws {
        let tmp = try TempStore()
        for (json, says) in [
            (#"{"network_patterns": {"rules": [{"pattern": "k-(market", "network": "K-Market"}]}}"#, "not a regular expression"),
            (#"{"network_patterns": {"rules": []}}"#, "no rules"),
            (#"{"network_patterns": {"rules": [{"pattern": "k", "network": " "}]}}"#, "has no network"),
            (#"{"network_patterns": {"rules": [{"pattern": "k", "network": "K"}], "unmatched": "drop"}}"#, "not a mapping JSON object"),
        ] {
            let path = try tmp.file("mapping.json", json)
            #expect {
                _ = try MappingFile.load(path: path)
            } throws: { error in
                String(describing: error).contains(says)
            }
        }
        var options = Self.options(NetworkPatterns(match: ["chain"], rules: [.init(pattern: "k", network: "K")]))
        options.dryRun = true
        await #expect(throws: ImportError.self) {
            try await tmp.importText("id,name,latitude,longitude\n1,K,60.1,24.9\n", options)
        }
        #expect(try tmp.snapshot().isEmpty)
    }
}
