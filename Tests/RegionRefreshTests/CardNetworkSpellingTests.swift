import Foundation
import Geo
import LocationStore
import OnCueContract
import Testing

@testable import RegionRefresh

/// `user_networks` resolve as the admin side resolves a spelling: the id, else (case, spaces and punctuation ignored)
/// an alias, a network's id or its display name. What matches nothing comes back in `unknown_networks`, once each,
/// instead of being dropped in silence.
@Suite struct CardNetworkSpellingTests {
    static let phone = Coordinate(uncheckedLatitude: 37.77, longitude: -122.42)

    static func engine() -> RegionRefreshEngine {
        func at(_ meters: Double, _ bearing: Double) -> Coordinate { Sphere.destination(from: phone, meters: meters, bearing: bearing) }
        let locations = [
            Location(networkId: "costco", externalId: "1", name: "Costco SF", coordinate: at(2_000, 10)),
            Location(networkId: "chipotle-mexican-grill", externalId: "1", name: "Chipotle", coordinate: at(900, 100)),
            Location(networkId: "sonic-drive-in", externalId: "1", name: "Sonic", coordinate: at(300, 200)),
        ]
        let networks = [
            Network(id: "costco", name: "Costco Wholesale"), Network(id: "chipotle-mexican-grill", name: "Chipotle Mexican Grill"),
            Network(id: "sonic-drive-in", name: "Sonic"),
        ]
        let index = LocationIndex.build(locations: locations, networks: networks, aliases: [(alias: "Chipotle", networkId: "chipotle-mexican-grill")])
        return RegionRefreshEngine(index: index)
    }

    func cardRegions(_ spellings: [String]) throws -> (networks: Set<String>, response: RegionRefreshResponse) {
        let response = try Self.engine().refresh(
            RefreshParameters(center: Self.phone, cardNetworks: spellings, maxRegions: 20, includeOtherNetworks: false), now: Date())
        return (Set(response.regions.map(\.networkId)), response)
    }

    @Test func idsAliasesAndDisplayNamesAllNameTheirNetwork() throws {
        for (spelling, network) in [
            ("costco", "costco"), ("Costco", "costco"), ("Costco Wholesale", "costco"), ("COSTCO-WHOLESALE", "costco"),
            ("chipotle", "chipotle-mexican-grill"), ("Chipotle Mexican Grill", "chipotle-mexican-grill"),
            ("Sonic Drive-In", "sonic-drive-in"), ("SONIC", "sonic-drive-in"),
        ] {
            let (networks, response) = try cardRegions([spelling])
            #expect(networks == [network], "\(spelling)")
            #expect(response.unknownNetworks == nil)
            #expect(response.resolvedNetworks == [spelling: network], "\(spelling)")
        }
    }

    @Test("the response says which network each spelling named, in the wire JSON and the contract's Codable alike")
    func resolvedSpellings() throws {
        let (_, response) = try cardRegions(["Costco Wholesale", "chipotle", "costco", "Trader Joe's", "SONIC", "chipotle"])
        #expect(
            response.resolvedNetworks == [
                "Costco Wholesale": "costco", "chipotle": "chipotle-mexican-grill", "costco": "costco", "SONIC": "sonic-drive-in",
            ])
        #expect(response.unknownNetworks == ["Trader Joe's"])
        let wire = String(decoding: response.wireJSON(), as: UTF8.self)
        #expect(
            wire.contains(
                #""resolved_networks":{"Costco Wholesale":"costco","SONIC":"sonic-drive-in","chipotle":"chipotle-mexican-grill","costco":"costco"}"#),
            "\(wire)")
        #expect(try JSONDecoder().decode(RegionRefreshResponse.self, from: Data(response.wireJSON())) == response)
        let (_, none) = try cardRegions(["Trader Joe's"])
        #expect(none.resolvedNetworks == nil && !String(decoding: none.wireJSON(), as: UTF8.self).contains("resolved_networks"))
    }

    @Test("a brand's network answers to every name the catalogue gives the brand, below the store's own spellings")
    func brandNamesFromTheCatalogue() throws {
        let phone = Self.phone
        let locations = [
            Location(
                networkId: "mcdonalds", externalId: "1", name: "McDonald's", coordinate: Sphere.destination(from: phone, meters: 400, bearing: 0)),
            Location(networkId: "target", externalId: "1", name: "Target", coordinate: Sphere.destination(from: phone, meters: 800, bearing: 90)),
        ]
        let networks = [Network(id: "mcdonalds", name: "McDonald's", wikidata: "Q38076"), Network(id: "target", name: "Target")]
        // An admin's alias gives one of McDonald's Japanese names to Target.
        let index = LocationIndex.build(locations: locations, networks: networks, aliases: [(alias: "マクドナルド", networkId: "target")])
        let engine = RegionRefreshEngine(index: index)
        func resolved(_ spelling: String) throws -> Set<String> {
            let r = try engine.refresh(
                RefreshParameters(center: phone, cardNetworks: [spelling], maxRegions: 20, includeOtherNetworks: false), now: Date())
            return Set(r.regions.map(\.networkId))
        }
        for spelling in ["Q38076", "Макдональдс", "麦当劳", "McDonald's PlayPlace"] {
            #expect(try resolved(spelling) == ["mcdonalds"], "\(spelling)")
        }
        // The store's alias wins over the catalogue's name; a network without a Wikidata id gets no catalogue names.
        #expect(try resolved("マクドナルド") == ["target"])
        #expect(try resolved("super target").isEmpty)
    }

    @Test func unmatchedSpellingsComeBackOnce() throws {
        let (networks, response) = try cardRegions(["costco", "Trader Joe's", "Trader Joe's", "", "!!!"])
        #expect(networks == ["costco"])
        #expect(response.unknownNetworks == ["Trader Joe's", "", "!!!"])
        let wire = String(decoding: response.wireJSON(), as: UTF8.self)
        #expect(wire.contains(#""unknown_networks":["Trader Joe's","","!!!"]"#), "\(wire)")
        // Visits name networks the same way.
        let boosted = try Self.engine().refresh(
            RefreshParameters(center: Self.phone, networkVisits: ["Costco Wholesale": 20], explain: true), now: Date())
        #expect(boosted.regions.first { $0.networkId == "costco" }?.explain?.visitBoost == 2)
    }
}
