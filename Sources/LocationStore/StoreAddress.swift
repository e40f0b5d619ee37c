import Foundation

/// Where a store is: a SQLite file (the embedded default) or a PostgreSQL database with PostGIS (scale-out). Every
/// command's `--db` (and `ONCUE_DB`) takes either; the URL's password never shows in `description`.
public enum StoreAddress: Sendable, Hashable, CustomStringConvertible {
    case file(String)
    case postgres(PostgresURL)

    public init(_ text: String) throws(StoreError) {
        if PostgresURL.isURL(text) {
            self = .postgres(try PostgresURL(text))
        } else {
            guard !text.isEmpty else { throw .invalidArgument("no store given: pass --db FILE or --db postgres://… (or set ONCUE_DB)") }
            self = .file(text)
        }
    }

    public var description: String {
        switch self {
        case .file(let path): path
        case .postgres(let url): url.description
        }
    }

    public var isPostgres: Bool {
        if case .postgres = self { return true }
        return false
    }
}
