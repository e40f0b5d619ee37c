/// A store that several processes write to (PostgreSQL): it counts its commits, and tells listeners of each one, so
/// that every server process can bring its in-memory index up to date. A store only this process writes (a SQLite
/// file) is not one: its writer knows when it wrote.
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
