import LocationStore
import OnCueClient

/// A wallet's cards matched to the store's networks as a region-refresh matches `user_networks`: a card may name its
/// network by id, alias, display name or Wikidata id, or by any name the brand catalogue knows for the brand
/// (`starbucks`, `Starbucks`, `Q37158` and `Старбакс` are one card). The replay counts moments under the store's
/// ids, so a card left under another spelling would match nothing; one that names no network is reported.
package enum WalletResolution {
    package struct Resolved: Sendable {
        package var wallet: Wallet
        /// Cards whose network id was a spelling of another: (as written, the network's id).
        package var renamed: [(given: String, id: String)]
        /// Cards that name no network of the store.
        package var unknown: [String]
    }

    package static func resolve(_ wallet: Wallet, in store: any LocationStore) async throws -> Resolved {
        let networks = try await store.networks().map(\.network)
        var byName: [String: String] = [:]
        var byWikidata: [String: String] = [:]
        for n in networks {
            byName[Network.aliasKey(n.name)] = byName[Network.aliasKey(n.name)] ?? n.id
            if let q = n.wikidata { byWikidata[q.uppercased()] = n.id }
        }
        var out = Resolved(wallet: wallet, renamed: [], unknown: [])
        for (i, card) in wallet.cards.enumerated() {
            let given = card.networkId
            var id = try await store.resolveNetwork(given) ?? byName[Network.aliasKey(given)] ?? byWikidata[given.uppercased()]
            if id == nil, let brand = BrandCatalogue.standard.brand(wikidata: given) ?? BrandCatalogue.standard.brand(named: given, country: nil) {
                id = byWikidata[brand.wikidata.uppercased()]
            }
            guard let id else {
                out.unknown.append(given)
                continue
            }
            if id != given { out.renamed.append((given, id)) }
            out.wallet.cards[i].networkId = id
        }
        return out
    }
}
