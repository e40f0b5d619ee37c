import LocationStore
import PostgresNIO

extension PostGISLocationStore: ReusableStore {
    /// A connection the server has closed (PostgreSQL restarted, an administrator ended the session) is not reused:
    /// the next use opens a new one, and meets the outage, if there still is one, then.
    public func suspend() -> Bool {
        !connection.isClosed && !inTransaction && changeVersionOfTransaction == nil
    }

    /// Checked again before each use, not only when the store was given back: a query started on a connection
    /// already closed was seen never to return (PostgresNIO 1.33.2, `StorePoolTests`). A connection dropped without a
    /// word fails its next use, which closes it (see `StorePool`).
    public func resume() -> Bool { !connection.isClosed }
}
