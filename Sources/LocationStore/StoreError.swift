/// Why a store could not be opened, read or written. Every case reads as one line.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case fileNotFound(path: String)
    case alreadyExists(path: String)
    case notSQLite(path: String)
    case notOnCueStore(path: String)
    case newerSchema(path: String, found: Int, supported: Int)
    case spatialiteUnavailable(String)
    case sqlite(code: Int32, message: String)
    case invalidArgument(String)
    case unknownNetwork(String)
    case corrupt(String)
    /// A PostgreSQL database that is not an OnCue store (it has tables of its own and no OnCue schema).
    case notOnCueDatabase(String)
    /// PostgreSQL could not be reached; the URL in the message never shows a password.
    case unreachable(String)
    /// PostgreSQL answered with an error (SQLSTATE and the server's message).
    case postgres(state: String, message: String)
    /// The PostGIS extension is neither installed nor installable by this user.
    case postgisUnavailable(String)
    /// The store can be read here but not written: a file or folder without write permission, a hot standby.
    case readOnly(String)
    /// Another writer held the store longer than this one may wait (SQLite's busy and locked results).
    case busy(String)
    /// The change contradicts what the store holds (an alias that would shadow another network's id).
    case conflict(String)

    public var description: String {
        switch self {
        case .fileNotFound(let p): "no store at \(p) (create one with `oncue db init --db \(p)`)"
        case .alreadyExists(let p): "\(p) already exists"
        case .notSQLite(let p): "\(p) is not a SQLite database"
        case .notOnCueStore(let p): "\(p) is a SQLite database but not an OnCue store"
        case .newerSchema(let p, let found, let supported):
            "\(p) has schema version \(found), newer than this oncue supports (\(supported)); upgrade oncue"
        case .spatialiteUnavailable(let m): "SpatiaLite could not be loaded (\(m)); install libsqlite3-mod-spatialite"
        case .sqlite(let code, let m): "SQLite error \(code): \(m)"
        case .invalidArgument(let m): m
        case .unknownNetwork(let id): "unknown network '\(id)'"
        case .corrupt(let m): "store is damaged: \(m)"
        case .notOnCueDatabase(let url): "\(url) is a PostgreSQL database but not an OnCue store"
        case .unreachable(let m): "cannot reach PostgreSQL: \(m)"
        case .postgres(let state, let m): "PostgreSQL error \(state): \(m)"
        case .postgisUnavailable(let m):
            "the postgis extension is not available (\(m)); install postgresql-15-postgis-3 on the server, "
                + "or have a superuser run CREATE EXTENSION postgis in the database"
        case .readOnly(let m): "the store cannot be written here: \(m)"
        case .busy(let m): "the store is busy with another writer: \(m)"
        case .conflict(let m): m
        }
    }
}
