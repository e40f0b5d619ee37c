/// The phone app's settings (the product document's `LocationService`, plus the `staged` strategy's).
package struct AppModel: Codable, Sendable, Hashable {
    public var radiusKm: Double = 50
    /// Refresh at least this often when woken (6 h).
    package var refreshIntervalSeconds: Double = 21_600
    /// Never refresh sooner than this after the previous refresh (0: whenever the threshold says so): a cap on the
    /// calls a walker in a dense centre makes, paid for in locations not monitored.
    package var minRefreshIntervalSeconds: Double = 0
    /// The fixed policy's floor: refresh after max(largest region radius, this) metres.
    package var fixedMinimumMeters: Double = 500
    /// No second notification within this time...
    package var cooldownSeconds: Double = 3_600
    /// ...for the same card (`network`: one "Espresso House card available" per hour, whichever branch) or for the
    /// same location (`location`).
    package var cooldownScope: String = "network"
    /// When the OS says the person is in a store region, post the card this much later, and withdraw it if the
    /// region's exit comes first (iOS: a time-triggered local notification removed on exit, no wake needed; Android
    /// has DWELL for this). 0: post at once. A walk-by leaves before the card shows; a visit stays.
    package var confirmSeconds: Double = 120
    /// Let the server fill spare slots with networks the user has no card for.
    package var includeOtherNetworks: Bool = false
    /// `staged`: OS region slots kept for the small store regions (the server is asked for the rest)...
    package var stagedSlots: Int = 4
    /// ...wide regions are at least this large, so the OS notices them early and the app can watch the store...
    package var stagedWideMinMeters: Double = 200
    /// ...and the app's own fix when a wide region wakes it: GPS on for this long, within the background time.
    package var gpsFixSeconds: Double = 8
    /// `+gps`: once the OS puts the person near a store, the app follows them with its GPS and posts the card when
    /// its own fixes over this long show a stay at the store (`StayWindow`); it stops following when the OS reports
    /// the region's exit, or after `gpsMaxSeconds`.
    package var gpsConfirmSeconds: Double = 60
    package var gpsMaxSeconds: Double = 900
    /// `+gps`: GPS rests while the person is farther from every followed store than this speed would carry them
    /// before a fix is worth taking (a brisk walk; 0: GPS stays on while following).
    package var gpsApproachMetersPerSecond: Double = 2
    /// `+motion`: the phone's motion sensor reports a change between walking and standing this late (assumed: Apple
    /// and Google publish no latency for `CMMotionActivity` or Activity Recognition).
    package var motionLatencySeconds: Double = 20
    /// `+gps+motion`: what the app judges a stay on — `window`, the last `gpsConfirmSeconds` of fixes, or `still`,
    /// every fix since the motion sensor said the person stands (the average sharpens as the stay goes on, and GPS
    /// rests beside a store only once the average is clearly away from it). The study tried `still` and kept
    /// `window` (simulations/README.md).
    package var gpsStayEvidence: String = "window"
    /// `+gps`: a stay beside the followed stores (not at them) is checked again after this long at most (each check
    /// costs a window of GPS).
    package var gpsRestWhileStayingSeconds: Double = 300

    package init() {}

    package static let cooldownScopes = ["network", "location"]
    package static let gpsStayEvidences = ["window", "still"]
}
