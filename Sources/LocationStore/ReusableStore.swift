/// A store whose connection can serve one use after another, so that a long-running process (the server) keeps it
/// open instead of opening one per use. Opening a SQLite file loads SpatiaLite and checks the schema, and closing its
/// last connection checkpoints the whole write-ahead log under an exclusive lock, during which every other writer
/// waits (after a large import, seconds on a busy disk). Opening a PostgreSQL store costs a connection, its
/// authentication and the schema's checks.
public protocol ReusableStore: LocationStore {
    /// Called when a use has ended, before the store waits for the next: ends what the use left open (a read
    /// statement not stepped to its end keeps a read transaction, and with it an old snapshot) and gives back what a
    /// waiting store need not hold (a SQLite connection's page cache and memory map, which would otherwise count in
    /// the process's resident memory). False when the store cannot serve again (a transaction or a bulk import still
    /// open): then it is closed instead.
    func suspend() -> Bool
    /// Called before a waiting store serves a use: false when it can no longer, and then it is closed and another is
    /// opened. It may take as long as the store's connect timeout (a PostgreSQL connection proves it still answers).
    func resume() async -> Bool
}
