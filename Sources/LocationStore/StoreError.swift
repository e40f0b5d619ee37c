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

    public var description: String {
        switch self {
        case .fileNotFound(let p): "no store at \(p) (create one with `oncue db init \(p)`)"
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
        }
    }
}
