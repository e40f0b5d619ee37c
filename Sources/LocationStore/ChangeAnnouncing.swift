/// A store that several processes write to and that tells them of its changes (PostGIS's `NOTIFY`), so that every
/// server can follow them as they commit; it is also polled (a notification can be lost). A store that does not (a SQLite file) is followed by
/// polling its change version (`LocationStore.trackedVersion`) alone: `IndexReloader` reads it every 2 seconds.
public protocol ChangeAnnouncing: LocationStore {
    /// The store's change counter, bumped by every committed write.
    func storeVersion() async throws -> Int64
    /// Calls `onChange` with the new version each time a change commits anywhere, until the task is cancelled or the
    /// connection fails (then it throws, and the caller reconnects).
    func listenForChanges(_ onChange: @Sendable (Int64) -> Void) async throws
}

extension LocationStore {
    /// The store's change counter, or nil for a store only this process writes.
    public func changeVersion() async throws -> Int64? {
        guard let shared = self as? any ChangeAnnouncing else { return nil }
        return try await shared.storeVersion()
    }
}
