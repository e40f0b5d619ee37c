import OnCueClient

/// A card on the person's screen, from when it was posted to when it went: what the two-tier measures read (a card
/// at the till is one on screen then, whenever it came).
package struct CardLife: Sendable, Hashable, Codable {
    /// How a card left the screen.
    package enum End: String, Sendable, Hashable, Codable {
        /// The app took it away (`ClientAction.removeCard`: the person left, or a quiet card outlived its time).
        case removed
        /// Another card took its place (one card on screen at a time).
        case replaced
        /// Still on screen when the recording ended.
        case traceEnded = "trace ended"
    }

    package var networkId: String
    package var locationIds: [String]
    package var card: String
    /// What posted it.
    package var trigger: CardNotification.Trigger
    /// The tier it came at.
    package var tier: CardTier
    package var posted: Double
    /// When a quiet card became an alert in place.
    package var upgraded: Double?
    package var ended: Double
    package var end: End
    /// The platform identifier it was posted under (a card under the same one replaces it).
    var identifier: String = ""

    enum CodingKeys: String, CodingKey {
        case networkId = "network_id"
        case locationIds = "location_ids"
        case card, trigger, tier, posted, upgraded, ended, end
    }

    /// When it buzzed: posted as an alert, or upgraded to one; nil for a card that stayed quiet.
    package var alertTime: Double? { tier == .alert ? posted : upgraded }

    package func onScreen(at time: Double) -> Bool { posted <= time && time < ended }

    /// Seconds on screen as a quiet card (until it went or became an alert).
    package var quietSeconds: Double { tier == .quiet ? (upgraded ?? ended) - posted : 0 }
}
