/// A store whose connection can serve one use after another, so that a long-running process (the server) keeps it
/// open instead of opening one per use. Opening a SQLite file loads SpatiaLite and checks the schema; worse, closing
/// its last connection checkpoints the whole write-ahead log under an exclusive lock, during which every other writer
/// waits (after a large import, seconds on a busy disk). A PostgreSQL store is not one: its connection can be dropped
/// by the server at any time, and opening one is cheap next to what a pool would have to detect.
public protocol ReusableStore: LocationStore {
    /// Ends what the last use left open (a read statement not stepped to its end keeps a read transaction, and with
    /// it an old snapshot) and says whether the store can serve the next use: false while a transaction or a bulk
    /// import is still open, after which the store must be closed instead.
    func prepareForReuse() -> Bool
}
