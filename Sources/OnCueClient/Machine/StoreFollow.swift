import Geo
import OnCueContract

/// A store the client follows with its own GPS (`+gps`) after the OS put the person near it.
struct StoreFollow: Sendable, Codable {
    var region: Region
    var started: Double
    var stores: [UnitVector]
    /// Since when the GPS has followed without a pause (the stay needs a whole window of fixes).
    var followedSince: Double
    var window = StayWindow()
    /// The rule holding the card back, as last told (`ClientNote.stayPending`); nil until the first judgement.
    var hold: ClientNote.StayHold?
    /// Two tiers with `alert_min_stay_seconds`: when the window confirmed the stay, and when a fix must still find the
    /// person at the store for the alert (GPS rests in between).
    var confirmedAt: Double?
    var alertDue: Double?

    /// Metres from `position` to the nearest of the follow's stores.
    func meters(to position: UnitVector) -> Double {
        stores.map { position.meters(to: $0) }.min() ?? .infinity
    }
}
