import OnCueClient

/// What became of one card moment under one strategy.
package struct MomentOutcome: Sendable, Hashable, Codable {
    package enum Status: String, Sendable, Codable {
        /// The card came in time to use (by the till), from shortly before arrival to a small grace after it...
        case onTime = "on time"
        /// ...before that, within the matching window (on the way there)...
        case early
        /// ...or after the grace (60 s by default) but still by the till.
        case slow
        /// The card came only after the till, while the person was still there: too late to use. "Late" means this
        /// everywhere (the README's, the CSV's and `summary.json`'s).
        case late
        case missed
    }

    /// Why a moment was missed: the strategy's monitoring, the OS, the region the strategy chose, or the app itself
    /// (the OS said the person was inside and the app did not confirm; its cool-down or withdrawal).
    package enum Miss: String, Sendable, Codable, CaseIterable {
        /// No region of the moment's locations was monitored during it: the strategy's loss.
        case notMonitored = "not monitored"
        /// Monitored, but the OS reported nothing in time, and `oracle-os` (every location, regions as large as the
        /// OS needs) missed it too: the OS's loss.
        case osDetection = "OS detection"
        /// Monitored, the OS reported nothing in time, but `oracle-os` caught it: the region the strategy registered
        /// (too small for the OS, registered while inside, replaced mid-visit) lost it.
        case regionDetection = "region detection"
        /// The OS reported the person inside a region of the moment's locations by the till, and the app posted no
        /// card: its own stay check did not confirm (`MomentOutcome.hold` says which rule held it).
        case notConfirmed = "app did not confirm"
        /// The app's policy: a repeat card in one stay held back by the cool-down, a card already shown too early,
        /// or a card withdrawn because the region's exit came within the confirmation delay.
        case policy = "app policy"
    }

    package var moment: CardMoment
    package var status: Status
    /// Seconds from arrival to the notification that counts (negative: before arrival); nil when missed. At a moment
    /// with several tills, from the arrival of the till the notification answers (`GroundTruthModel.till(at:among:)`).
    package var delay: Double?
    /// When that notification came; nil when missed.
    package var cardTime: Double?
    /// Notifications of the moment's network within its matching window (more than one: duplicates).
    package var notifications: Int
    /// What posted the first one.
    package var trigger: CardNotification.Trigger?
    /// The location the first one was credited to (its region's lead), for the report.
    package var notifiedLocationId: String?
    package var miss: Miss?
    /// For `notConfirmed`: the rule that last held the card back before the till (nil: the app never followed the
    /// store with its GPS).
    package var hold: ClientNote.StayHold?
    /// For a miss: what the strategy did about it (for the per-visit table).
    package var detail: String
}
