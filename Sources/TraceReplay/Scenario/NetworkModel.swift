import OnCueClient

/// The refresh call's transport: latency, failures and outages (virtual time, never slept).
package struct NetworkModel: Codable, Sendable, Hashable {
    package var latencyMinSeconds: Double = 0.2
    package var latencyMaxSeconds: Double = 1.5
    /// Chance that one call fails outright.
    package var failureProbability: Double = 0
    /// Outage windows as [start, end] seconds after the trace's first fix: every call inside fails.
    package var outages: [[Double]] = []
    /// A failed refresh is retried no earlier than this after the failure, doubling up to the maximum.
    package var backoffInitialSeconds: Double = ClientSettings.defaultBackoffInitialSeconds
    package var backoffMaxSeconds: Double = ClientSettings.defaultBackoffMaxSeconds

    package init() {}
    package static let instant: NetworkModel = {
        var n = NetworkModel()
        n.latencyMinSeconds = 0
        n.latencyMaxSeconds = 0
        return n
    }()
}
