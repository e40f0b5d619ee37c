import Foundation
import OnCueClient

/// What one strategy achieved on one trace (or, summed, on a batch). The headline is the card in time to use it:
/// `served_recall` (moments whose card came between `match_before_seconds` before arrival and the till, see
/// `Till`) and `precision` (cards that came at such a time for their network). "Before leaving"
/// (`recall_before_leaving`, `precision_before_leaving`) counts a card any time until the person left: a secondary
/// view, since a card 40 minutes after arrival is of no use at the till. The per-location view (`location_*`)
/// credits a notification to every location of the region that fired.
package struct StrategyMetrics: Sendable, Hashable, Codable {
    package var strategy: String
    package var hours: Double = 0
    package var cardMoments: Int = 0
    /// Moments whose card came in time to use it.
    package var served: Int = 0
    /// served / card moments; nil without moments.
    package var servedRecall: Double?
    /// Cards that came within the served window of a moment of their network.
    package var servedNotifications: Int = 0
    /// Moments whose first card came by arrival + 1, 2, 5 and 10 minutes (and not before the matching window).
    package var cardBy: [Int] = [0, 0, 0, 0]
    /// `cardBy` ÷ card moments.
    package var cardByShare: [Double]?
    /// Moments whose card came any time before the person left.
    package var caught: Int = 0
    package var onTime: Int = 0
    package var early: Int = 0
    /// Moments whose card came after the on-time grace (60 s) but by the till.
    package var slow: Int = 0
    /// Moments whose card came only after the till (caught before leaving, not served): the app confirmed too late.
    package var late: Int = 0
    /// caught / card moments (before leaving); nil without moments. `onTimeRecall`: on time only.
    package var recall: Double?
    package var onTimeRecall: Double?
    /// recall / `oracle-os` recall on the same traces (batch totals only).
    package var recallVsOracleOS: Double?
    package var notifications: Int = 0
    /// Notifications within the matching window of a card moment of their network.
    package var correctNotifications: Int = 0
    /// served notifications / notifications; nil without notifications.
    package var precision: Double?
    /// correct / notifications (a card any time before leaving counts as right).
    package var precisionBeforeLeaving: Double?
    /// Correct notifications beyond the first of their moment.
    package var duplicates: Int = 0
    /// Notifications the cool-down held back.
    package var suppressed: Int = 0
    /// Notifications withdrawn because the region's exit came within the confirmation delay (walk-bys, mostly).
    package var withdrawn: Int = 0
    /// Seconds from arrival to the notification that counts (`MomentOutcome.delay`), nearest rank.
    package var delayP50: Double?
    package var delayP90: Double?
    /// The loss split of missed card moments (see `MomentOutcome.Miss`).
    package var missedNotMonitored: Int = 0
    package var missedOSDetection: Int = 0
    package var missedRegionDetection: Int = 0
    package var missedNotConfirmed: Int = 0
    package var missedPolicy: Int = 0
    /// `missedNotConfirmed` by the rule that last held the card (`ClientNote.StayHold.key`, or `never_followed`).
    package var notConfirmedBy: [String: Int] = [:]
    package var locationVisits: Int = 0
    package var locationCaught: Int = 0
    package var locationRecall: Double?
    package var refreshCalls: Int = 0
    package var refreshFailures: Int = 0
    package var refreshCallsPerHour: Double = 0
    package var regionStarts: Int = 0
    package var regionStops: Int = 0
    /// (starts + stops) per hour of trace.
    package var regionChurnPerHour: Double = 0
    /// startMonitoring calls refused by the OS limit.
    package var monitorFailures: Int = 0
    package var wakes: Int = 0
    package var wakesPerHour: Double = 0
    package var gpsSeconds: Double = 0
    package var gpsSecondsPerHour: Double = 0
    /// Raw delays, kept for batch aggregation (not written to JSON).
    var delays: [Double] = []
    /// Study IV's measures of the cards as the person sees them (`TierMetrics`).
    package var tiers = TierMetrics()

    enum CodingKeys: String, CodingKey {
        case strategy, hours, caught, early, slow, late, notifications, precision, duplicates, suppressed, withdrawn, wakes, served
        case recall = "recall_before_leaving"
        case precisionBeforeLeaving = "precision_before_leaving"
        case servedRecall = "served_recall"
        case servedNotifications = "served_notifications"
        case cardBy = "card_by_1_2_5_10_min"
        case cardByShare = "card_by_1_2_5_10_min_share"
        case cardMoments = "card_moments"
        case onTime = "on_time"
        case onTimeRecall = "on_time_recall"
        case recallVsOracleOS = "recall_vs_oracle_os"
        case correctNotifications = "correct_notifications"
        case delayP50 = "delay_p50_seconds"
        case delayP90 = "delay_p90_seconds"
        case missedNotMonitored = "missed_not_monitored"
        case missedOSDetection = "missed_os_detection"
        case missedRegionDetection = "missed_region_detection"
        case missedNotConfirmed = "missed_not_confirmed"
        case notConfirmedBy = "not_confirmed_by"
        case missedPolicy = "missed_app_policy"
        case locationVisits = "location_visits"
        case locationCaught = "location_caught"
        case locationRecall = "location_recall"
        case refreshCalls = "refresh_calls"
        case refreshFailures = "refresh_failures"
        case refreshCallsPerHour = "refresh_calls_per_hour"
        case regionStarts = "region_starts"
        case regionStops = "region_stops"
        case regionChurnPerHour = "region_churn_per_hour"
        case monitorFailures = "monitor_failures"
        case wakesPerHour = "wakes_per_hour"
        case gpsSeconds = "gps_seconds"
        case gpsSecondsPerHour = "gps_seconds_per_hour"
        case tiers = "two_tier"
    }

    package init(strategy: String) { self.strategy = strategy }

    /// Nearest-rank percentile (`p` in 0...1) of unsorted values; nil when empty.
    package static func percentile(_ values: [Double], _ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }

    /// The minutes after arrival `cardBy` counts to.
    package static let cardByMinutes = [1, 2, 5, 10]

    /// Counts a caught moment by when its card came.
    mutating func count(_ status: MomentOutcome.Status) {
        switch status {
        case .onTime: onTime += 1
        case .early: early += 1
        case .slow: slow += 1
        case .late: late += 1
        case .missed: break
        }
    }

    /// Counts a missed moment in the loss split.
    mutating func count(_ miss: MomentOutcome.Miss, hold: ClientNote.StayHold?) {
        switch miss {
        case .notMonitored: missedNotMonitored += 1
        case .osDetection: missedOSDetection += 1
        case .regionDetection: missedRegionDetection += 1
        case .notConfirmed:
            missedNotConfirmed += 1
            notConfirmedBy[hold?.key ?? ClientNote.StayHold.neverFollowedKey, default: 0] += 1
        case .policy: missedPolicy += 1
        }
    }

    mutating func finishRatios() {
        servedRecall = cardMoments > 0 ? Double(served) / Double(cardMoments) : nil
        cardByShare = cardMoments > 0 ? cardBy.map { Double($0) / Double(cardMoments) } : nil
        recall = cardMoments > 0 ? Double(caught) / Double(cardMoments) : nil
        onTimeRecall = cardMoments > 0 ? Double(onTime) / Double(cardMoments) : nil
        precision = notifications > 0 ? Double(servedNotifications) / Double(notifications) : nil
        precisionBeforeLeaving = notifications > 0 ? Double(correctNotifications) / Double(notifications) : nil
        locationRecall = locationVisits > 0 ? Double(locationCaught) / Double(locationVisits) : nil
        delayP50 = Self.percentile(delays, 0.5)
        delayP90 = Self.percentile(delays, 0.9)
        refreshCallsPerHour = hours > 0 ? Double(refreshCalls) / hours : 0
        regionChurnPerHour = hours > 0 ? Double(regionStarts + regionStops) / hours : 0
        wakesPerHour = hours > 0 ? Double(wakes) / hours : 0
        gpsSecondsPerHour = hours > 0 ? gpsSeconds / hours : 0
    }

    /// Sums counts over traces and recomputes the ratios (batch totals).
    package static func total(_ parts: [StrategyMetrics], strategy: String) -> StrategyMetrics {
        var t = StrategyMetrics(strategy: strategy)
        for p in parts {
            t.hours += p.hours
            t.cardMoments += p.cardMoments
            t.served += p.served
            t.servedNotifications += p.servedNotifications
            for k in t.cardBy.indices { t.cardBy[k] += p.cardBy[k] }
            t.caught += p.caught
            t.onTime += p.onTime
            t.early += p.early
            t.slow += p.slow
            t.late += p.late
            t.notifications += p.notifications
            t.correctNotifications += p.correctNotifications
            t.duplicates += p.duplicates
            t.suppressed += p.suppressed
            t.withdrawn += p.withdrawn
            t.missedNotMonitored += p.missedNotMonitored
            t.missedOSDetection += p.missedOSDetection
            t.missedRegionDetection += p.missedRegionDetection
            t.missedNotConfirmed += p.missedNotConfirmed
            t.missedPolicy += p.missedPolicy
            t.notConfirmedBy.merge(p.notConfirmedBy, uniquingKeysWith: +)
            t.locationVisits += p.locationVisits
            t.locationCaught += p.locationCaught
            t.refreshCalls += p.refreshCalls
            t.refreshFailures += p.refreshFailures
            t.regionStarts += p.regionStarts
            t.regionStops += p.regionStops
            t.monitorFailures += p.monitorFailures
            t.wakes += p.wakes
            t.gpsSeconds += p.gpsSeconds
            t.delays += p.delays
        }
        t.finishRatios()
        t.tiers = TierMetrics.total(parts.map(\.tiers))
        return t
    }
}
