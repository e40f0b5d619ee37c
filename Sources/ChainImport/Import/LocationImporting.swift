import LocationStore

/// An importer of chain location files into one store: `ChainImporter` for a SQLite file, `PostGISImporter` (module
/// PostGISImport) for a PostgreSQL database. Both keep the same promises (one transaction, idempotent upsert, the same
/// validation, reason codes, geocoding and import log); `importer(for:options:)` (module StoreOpening) picks the one
/// for a store.
public protocol LocationImporting: AnyObject {
    var progress: ((ImportProgress) -> Void)? { get set }
    var notice: ((String) -> Void)? { get set }
    func run(_ inputs: [ImportInput]) async throws -> ImportReport
}

extension ChainImporter: LocationImporting {}
