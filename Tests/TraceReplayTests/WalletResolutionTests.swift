import Foundation
import LocationStore
import OnCueClient
import StoreOpening
import Testing

@testable import TraceReplay

/// A replay wallet's cards find their networks as `user_networks` do: by id, alias, display name or Wikidata id.
@Suite struct WalletResolutionTests {
    @Test func cardsResolveByIdAliasNameAndWikidataAndUnknownOnesAreReported() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oncue-wallet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try await StoreAddress.file(dir.appendingPathComponent("s.sqlite").path).create()
        try await store.upsertNetwork(Network(id: "starbucks", name: "Starbucks", wikidata: "Q37158"))
        try await store.upsertNetwork(Network(id: "costco", name: "Costco Wholesale"))
        try await store.addAlias("Costco", networkId: "costco")
        let wallet = Wallet(cards: [
            .init(networkId: "Q37158", name: "Stars"), .init(networkId: "Costco Wholesale", name: "Costco"),
            .init(networkId: "Starbucks Coffee", name: "Stars again"), .init(networkId: "nope", name: "Nope"),
        ])
        let resolved = try await WalletResolution.resolve(wallet, in: store)
        #expect(resolved.wallet.cards.map(\.networkId) == ["starbucks", "costco", "starbucks", "nope"])
        #expect(resolved.unknown == ["nope"])
        #expect(resolved.renamed.count == 3)
        await store.close()
    }
}
