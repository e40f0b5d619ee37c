import Synchronization

/// One open transaction, or a savepoint inside one, on one connection, for as long as the `transaction` body that
/// opened it runs.
///
/// It lives in a task-local, not on the store: whether a transaction is open is which body the task is in. No count
/// kept beside the connection can drift from what the body did, or outlive a use on a connection the server's pool
/// keeps for the next: every path out of `transaction` ends the transaction or savepoint it opened, and a connection
/// whose ROLLBACK failed is closed. A transaction a failed statement left aborted is also refused by PostgreSQL
/// itself before a kept connection's next use (`PostGISLocationStore.resume` reads from it).
final class PostGISTransaction: Sendable {
    /// The innermost scope of each connection (by `PostgresConnection.ID`) the task has a transaction open on.
    @TaskLocal static var open: [Int: PostGISTransaction] = [:]

    /// The scope around this one on the same connection; nil for the transaction itself.
    let parent: PostGISTransaction?
    /// The savepoint's name, one per depth: a savepoint left open by a RELEASE that failed must not be the one its
    /// parent's ROLLBACK TO reaches.
    let savepoint: String
    private let depth: Int
    private let takenVersion = Mutex<Int64?>(nil)

    init(parent: PostGISTransaction?) {
        self.parent = parent
        depth = (parent?.depth ?? -1) + 1
        savepoint = "oncue_sp\(depth)"
    }

    /// The change version this scope or one around it took (`noteChange`); a transaction takes at most one.
    var changeVersion: Int64? { takenVersion.withLock { $0 } ?? parent?.changeVersion }

    func noteTaken(_ version: Int64) { takenVersion.withLock { $0 = version } }

    /// A released savepoint's version belongs to the scope around it from now on: a later rollback of a sibling
    /// savepoint must not give it back, or the next change would take a second version. A rolled-back savepoint's
    /// version goes with it (its bump of the version row was rolled back too).
    func released() {
        guard let parent, let version = takenVersion.withLock({ $0 }) else { return }
        parent.noteTaken(version)
    }
}
