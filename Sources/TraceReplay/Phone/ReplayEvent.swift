/// One line of the per-event CSV.
package struct ReplayEvent: Sendable, Hashable, Codable {
    package enum Kind: String, Sendable, Codable {
        case wake
        case refreshRequest = "refresh_request"
        case refreshOK = "refresh_ok"
        case refreshFailed = "refresh_failed"
        case monitorStart = "monitor_start"
        case monitorStop = "monitor_stop"
        case monitorFailed = "monitor_failed"
        case enter, exit, dwell
        case stateInside = "state_inside"
        case stateUnknown = "state_unknown"
        case gpsFix = "gps_fix"
        case notification
        case suppressed = "cooldown_suppressed"
        case scheduled = "card_scheduled"
        case withdrawn = "card_withdrawn"
        case cardRemoved = "card_removed"
        case visit
        case momentCaught = "moment_caught"
        case momentMissed = "moment_missed"
        case passThrough = "pass_through"
    }

    package var time: Double
    package var kind: Kind
    /// Location or region id ("" when none).
    package var location: String
    package var network: String
    package var card: String
    /// Recorded distance from the trace to the location's centre, metres (-1 when not applicable).
    package var distance: Double
    /// Free text: wake reason, failure reason, region count.
    package var detail: String

    package init(time: Double, kind: Kind, location: String = "", network: String = "", card: String = "", distance: Double = -1, detail: String = "")
    {
        self.time = time
        self.kind = kind
        self.location = location
        self.network = network
        self.card = card
        self.distance = distance
        self.detail = detail
    }
}

/// A region as it was monitored between two virtual times (for the map and the not-monitored test).
package struct MonitoredInterval: Sendable, Hashable, Codable {
    /// What the region was for.
    package enum Role: String, Sendable, Codable {
        /// A store region from the server, notified on entry (or dwell).
        case store
        /// The refresh ("bubble") region: its exit asks the server again.
        case refresh
        /// `staged`: a wide region that wakes the app near a store...
        case wide
        /// ...and the store's own small region, watched until arrival.
        case small
    }

    package var regionId: String
    package var locationIds: [String]
    package var networkId: String
    package var lat: Double
    package var lon: Double
    package var radiusMeters: Double
    package var role: Role
    package var start: Double
    package var end: Double

    package var isRefreshRegion: Bool { role == .refresh }
}
