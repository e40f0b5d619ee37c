import Synchronization

/// The connections of one server, and which of them are idle keep-alive connections between requests, so that a full
/// server makes room by closing the one idle longest.
///
/// Without it, `--max-connections` idle keep-alive connections were enough to stop the server accepting: a new
/// connection waited in the listen backlog until an idle one timed out (60 s), and a load balancer's health check
/// timed out with it. Now, once the open connections pass `evictionThreshold` (the limit less a reserve), every new
/// connection closes the connection idle longest, so the server keeps the reserve free for health checks and new
/// clients while idle clients remain. Closing an idle keep-alive connection is what every HTTP/1.1 client expects
/// (RFC 9112 §9.5: it may close at any time; the client opens another). Connections with a request in progress are
/// never closed to make room: when all of them are busy, the server is full and new connections wait, as before.
final class ConnectionRoster: Sendable {
    /// Closes a connection on its own event loop if it is still idle there (a head may have arrived meanwhile).
    typealias Eviction = @Sendable () -> Void

    private struct State {
        var open = 0
        /// Idle connections by id: since when (a sequence number, so the oldest is the least) and how to close them.
        var idle: [ObjectIdentifier: (since: UInt64, evict: Eviction)] = [:]
        var sequence: UInt64 = 0
    }

    /// Above this many open connections, a new one closes the idle connection that has waited longest.
    let evictionThreshold: Int
    private let state = Mutex(State())

    init(maxConnections: Int) {
        // A reserve of a tenth, at least one and at most 64: room for a burst of health checks and new clients.
        let reserve = min(64, max(1, maxConnections / 10))
        evictionThreshold = max(0, maxConnections - reserve)
    }

    /// Counts a new connection; past the threshold, returns the oldest idle connection's eviction for the caller to run.
    func opened() -> Eviction? {
        state.withLock { state in
            state.open += 1
            guard state.open > evictionThreshold, let oldest = state.idle.min(by: { $0.value.since < $1.value.since }) else { return nil }
            state.idle[oldest.key] = nil
            return oldest.value.evict
        }
    }

    /// The connection `id` has nothing in progress; `evict` closes it if it still has nothing when run.
    func becameIdle(_ id: ObjectIdentifier, evict: @escaping Eviction) {
        state.withLock { state in
            state.sequence += 1
            state.idle[id] = (state.sequence, evict)
        }
    }

    /// The connection `id` began a request.
    func becameBusy(_ id: ObjectIdentifier) {
        _ = state.withLock { $0.idle.removeValue(forKey: id) }
    }

    func closed(_ id: ObjectIdentifier) {
        state.withLock { state in
            state.open -= 1
            state.idle[id] = nil
        }
    }

    var openCount: Int { state.withLock { $0.open } }
    var idleCount: Int { state.withLock { $0.idle.count } }
}
