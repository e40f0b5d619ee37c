/// How long a client may take over each part of an exchange, how many connections may be open, and how long a
/// shutdown waits for the requests in flight.
///
/// Without these a client that sends a head and one byte of body holds a connection (and a task) forever, and a
/// SIGTERM never ends while one such client stays connected. The defaults are generous for phones on slow networks;
/// `oncue serve` sets each from a flag or an environment variable.
package struct ConnectionLimits: Sendable, Hashable {
    /// From accepting a connection to the end of the first request's head. Answered 408, then closed.
    package var headTimeout: Duration = .seconds(10)
    /// From a request's head to the end of its body. Answered 408, then closed.
    package var bodyTimeout: Duration = .seconds(30)
    /// The same for `POST /admin/imports`, whose CSV bodies run to hundreds of megabytes.
    package var uploadTimeout: Duration = .seconds(900)
    /// The slowest an upload may arrive, in bytes per second over each `uploadRateWindow`: within the upload deadline a
    /// client sending one byte every two seconds would otherwise hold its connection for 15 minutes. 0: no floor.
    package var uploadMinBytesPerSecond: Int = 1_024
    /// Over how long the upload rate is measured: long enough for a phone's stall, short enough to cut a trickle soon.
    package var uploadRateWindow: Duration = .seconds(10)
    /// From the end of a response to the end of the next request's head on a keep-alive connection. Closed silently,
    /// as every HTTP/1.1 client expects of an idle connection.
    package var idleTimeout: Duration = .seconds(60)
    /// Connections open at once; past it the server stops accepting (they wait in the listen backlog). Near it, idle
    /// connections are closed to make room (`ConnectionRoster`), so the limit is reached only when all are busy.
    package var maxConnections: Int = 1_000
    /// Connections one peer address may hold open, and of those how many may not have sent a complete first head
    /// yet; a connection past either is closed as it is accepted. Trusted proxies are exempt. A carrier's NAT puts
    /// many phones behind one address, each keeping a connection alive for a minute at most: 256 is room for them,
    /// and 64 heads in flight at once is more than a burst of new connections from one of them needs.
    package var maxConnectionsPerAddress: Int = 256
    package var maxPendingHeadsPerAddress: Int = 64
    /// After SIGTERM, connections still open this long are closed, so that the process exits.
    package var shutdownTimeout: Duration = .seconds(15)

    package init() {}

    /// The limit of a request's body: uploads get longer.
    func bodyTimeout(isUpload: Bool) -> Duration { isUpload ? uploadTimeout : bodyTimeout }
}
