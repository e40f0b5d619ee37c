import Foundation

/// The user's loyalty cards: which networks a card notification is for, and the card's name in it.
/// File: `{"cards": [{"network_id": "costco", "name": "Costco"}]}` (a bare array of cards also works).
public struct Wallet: Codable, Sendable, Hashable {
    public struct Card: Codable, Sendable, Hashable {
        public var networkId: String
        public var name: String

        public init(networkId: String, name: String) {
            self.networkId = networkId
            self.name = name
        }

        enum CodingKeys: String, CodingKey {
            case networkId = "network_id"
            case name
        }
    }

    public var cards: [Card]

    public init(cards: [Card]) { self.cards = cards }

    public static func load(json data: Data) throws(ClientSettingsError) -> Wallet {
        let decoder = JSONDecoder()
        let wallet: Wallet
        if let w = try? decoder.decode(Wallet.self, from: data) {
            wallet = w
        } else if let cards = try? decoder.decode([Card].self, from: data) {
            wallet = Wallet(cards: cards)
        } else {
            throw .invalid("wallet must be {\"cards\": [{\"network_id\": ..., \"name\": ...}]}")
        }
        guard !wallet.cards.isEmpty else { throw .invalid("wallet has no cards") }
        return wallet
    }

    /// Network ids in file order, without duplicates (the request's `user_networks`).
    public var networkIds: [String] {
        var seen = Set<String>()
        return cards.map(\.networkId).filter { seen.insert($0).inserted }
    }

    /// The card for a network, if the user holds one.
    public func card(for networkId: String) -> Card? { cards.first { $0.networkId == networkId } }
}
