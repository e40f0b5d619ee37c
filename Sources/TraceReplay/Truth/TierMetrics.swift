import Foundation

/// The measures of study IV, as a person sees and feels the cards (`CardLife`): is the card on screen at the till,
/// quiet or alert; does a buzz mean a stay; how many cards and buzzes come at no moment, and how long a stray quiet
/// card stays. A single-tier client's cards are all alerts, so its figures read the same way.
package struct TierMetrics: Sendable, Hashable, Codable {
    package var hours = 0.0
    package var moments = 0
    /// Moments with a card of their network on screen at a till, posted since that till's matching window opened.
    package var onScreen = 0
    package var onScreenRecall: Double?
    /// Alerts (cards posted as alerts or upgraded to one), and those within a moment of their network.
    package var alerts = 0
    package var alertsAtMoment = 0
    package var alertPrecision: Double?
    /// Moments of at least `longStaySeconds`, and those that got an alert.
    package var longStays = 0
    package var longStaysAlerted = 0
    package var alertLongStayRecall: Double?
    /// Alerts at no moment of their network: buzzes for a shop the person walked past.
    package var strayAlerts = 0
    package var buzzesPer10h = 0.0
    /// Quiet cards, and those posted at no moment of their network, with how long each stayed on screen.
    package var quietCards = 0
    package var strayQuiet = 0
    package var quietStrayPer10h = 0.0
    package var quietStrayMedianSeconds: Double?
    /// Seconds from arrival to the first card on screen (any tier) and to the first alert, at moments that had one.
    package var screenDelayP50: Double?
    package var alertDelayP50: Double?
    /// Why moments had no card on screen at a till: no region monitored, the OS said nothing (nor for `oracle-os`),
    /// the region lost it (`oracle-os` caught it), the app showed none though the OS said the person was inside (its
    /// quiet filter or cool-down), a card came and was removed or replaced before the till, or the card came after it.
    package var missedNotMonitored = 0
    package var missedOSDetection = 0
    package var missedRegionDetection = 0
    package var missedAppHeld = 0
    package var missedRemovedBeforeTill = 0
    package var missedReplacedBeforeTill = 0
    package var missedLate = 0
    var strayQuietSeconds: [Double] = []
    var screenDelays: [Double] = []
    var alertDelays: [Double] = []

    /// A stay this long is one a person would not mind being buzzed for.
    package static let longStaySeconds = 600.0

    enum CodingKeys: String, CodingKey {
        case hours, moments, alerts
        case onScreen = "on_screen"
        case onScreenRecall = "on_screen_recall"
        case alertsAtMoment = "alerts_at_moment"
        case alertPrecision = "alert_precision"
        case longStays = "long_stays"
        case longStaysAlerted = "long_stays_alerted"
        case alertLongStayRecall = "alert_long_stay_recall"
        case strayAlerts = "stray_alerts"
        case buzzesPer10h = "buzzes_per_10h"
        case quietCards = "quiet_cards"
        case strayQuiet = "stray_quiet"
        case quietStrayPer10h = "quiet_stray_per_10h"
        case quietStrayMedianSeconds = "quiet_stray_median_seconds"
        case screenDelayP50 = "screen_delay_p50_seconds"
        case alertDelayP50 = "alert_delay_p50_seconds"
        case missedNotMonitored = "screen_missed_not_monitored"
        case missedOSDetection = "screen_missed_os_detection"
        case missedRegionDetection = "screen_missed_region_detection"
        case missedAppHeld = "screen_missed_app_held"
        case missedRemovedBeforeTill = "screen_missed_removed_before_till"
        case missedReplacedBeforeTill = "screen_missed_replaced_before_till"
        case missedLate = "screen_missed_late"
    }

    package init() {}

    mutating func finishRatios() {
        onScreenRecall = moments > 0 ? Double(onScreen) / Double(moments) : nil
        alertPrecision = alerts > 0 ? Double(alertsAtMoment) / Double(alerts) : nil
        alertLongStayRecall = longStays > 0 ? Double(longStaysAlerted) / Double(longStays) : nil
        buzzesPer10h = hours > 0 ? Double(strayAlerts) / hours * 10 : 0
        quietStrayPer10h = hours > 0 ? Double(strayQuiet) / hours * 10 : 0
        quietStrayMedianSeconds = StrategyMetrics.percentile(strayQuietSeconds, 0.5)
        screenDelayP50 = StrategyMetrics.percentile(screenDelays, 0.5)
        alertDelayP50 = StrategyMetrics.percentile(alertDelays, 0.5)
    }

    /// Sums over traces and recomputes the ratios.
    static func total(_ parts: [TierMetrics]) -> TierMetrics {
        var t = TierMetrics()
        for p in parts {
            t.hours += p.hours
            t.moments += p.moments
            t.onScreen += p.onScreen
            t.alerts += p.alerts
            t.alertsAtMoment += p.alertsAtMoment
            t.longStays += p.longStays
            t.longStaysAlerted += p.longStaysAlerted
            t.strayAlerts += p.strayAlerts
            t.quietCards += p.quietCards
            t.strayQuiet += p.strayQuiet
            t.missedNotMonitored += p.missedNotMonitored
            t.missedOSDetection += p.missedOSDetection
            t.missedRegionDetection += p.missedRegionDetection
            t.missedAppHeld += p.missedAppHeld
            t.missedRemovedBeforeTill += p.missedRemovedBeforeTill
            t.missedReplacedBeforeTill += p.missedReplacedBeforeTill
            t.missedLate += p.missedLate
            t.strayQuietSeconds += p.strayQuietSeconds
            t.screenDelays += p.screenDelays
            t.alertDelays += p.alertDelays
        }
        t.finishRatios()
        return t
    }
}
