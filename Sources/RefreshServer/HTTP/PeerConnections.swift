import Synchronization

/// Connections open per peer address, and how many of them have not yet sent a complete first head: one address
/// may hold only its share, so that a client opening hundreds of slow connections (slowloris) cannot take the places
/// every other client needs. Shared by every connection of one server.
final class PeerConnections: Sendable {
    private struct Count {
        var open = 0
        var awaitingHead = 0
    }

    let maxOpen: Int
    let maxAwaitingHead: Int
    /// Addresses exempt from the caps: the trusted proxies, whose connections carry many clients (the client's own
    /// address arrives only with the head).
    private let exempt: [IPNetwork]
    private let counts = Mutex<[ClientKey: Count]>([:])

    init(_ limits: ConnectionLimits, exempt: [IPNetwork]) {
        maxOpen = limits.maxConnectionsPerAddress
        maxAwaitingHead = limits.maxPendingHeadsPerAddress
        self.exempt = exempt
    }

    func isExempt(_ key: ClientKey) -> Bool {
        guard let bytes = key.bytes else { return false }
        return exempt.contains { $0.contains(bytes) }
    }

    /// Counts a new connection of `key`, or refuses it (false) when the address holds its share already.
    func admit(_ key: ClientKey) -> Bool {
        counts.withLock { counts in
            var c = counts[key] ?? Count()
            guard c.open < maxOpen, c.awaitingHead < maxAwaitingHead else { return false }
            c.open += 1
            c.awaitingHead += 1
            counts[key] = c
            return true
        }
    }

    /// The connection's first head is complete.
    func headArrived(_ key: ClientKey) {
        counts.withLock { $0[key]?.awaitingHead -= 1 }
    }

    /// An admitted connection closed, with or without its first head.
    func closed(_ key: ClientKey, awaitingHead: Bool) {
        counts.withLock { counts in
            guard var c = counts[key] else { return }
            c.open -= 1
            if awaitingHead { c.awaitingHead -= 1 }
            counts[key] = c.open > 0 ? c : nil
        }
    }
}
