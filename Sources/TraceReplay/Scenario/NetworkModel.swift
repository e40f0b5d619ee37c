/// The refresh call's transport: latency, failures and outages (virtual time, never slept).
public struct NetworkModel: Codable, Sendable, Hashable {
    public var latencyMinSeconds: Double = 0.2
    public var latencyMaxSeconds: Double = 1.5
    /// Chance that one call fails outright.
    public var failureProbability: Double = 0
    /// Outage windows as [start, end] seconds after the trace's first fix: every call inside fails.
    public var outages: [[Double]] = []
    /// A failed refresh is retried no earlier than this after the failure, doubling up to the maximum.
    public var backoffInitialSeconds: Double = 30
    public var backoffMaxSeconds: Double = 1_800

    public init() {}
    public static let instant: NetworkModel = {
        var n = NetworkModel()
        n.latencyMinSeconds = 0
        n.latencyMaxSeconds = 0
        return n
    }()
}
