import Foundation
import Logging

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

    /// Opens the store there (refusing what is not an OnCue store, or is newer than this build).
    public func open(readOnly: Bool = false, logger: Logger = Logger(label: "oncue.store")) async throws -> any LocationStore {
        switch self {
        case .file(let path): try SQLiteLocationStore(path: path, readOnly: readOnly)
        case .postgres(let url): try await PostGISLocationStore.open(url, readOnly: readOnly, logger: logger)
        }
    }

    /// Creates an empty store there: a new file, or the schema in an empty PostgreSQL database.
    public func create(logger: Logger = Logger(label: "oncue.store")) async throws -> any LocationStore {
        switch self {
        case .file(let path): try SQLiteLocationStore.create(path: path)
        case .postgres(let url): try await PostGISLocationStore.create(url, logger: logger)
        }
    }
}
