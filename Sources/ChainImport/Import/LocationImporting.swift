import LocationStore

/// An importer of chain location files into one store: `ChainImporter` for a SQLite file, `PostGISImporter` for a
/// PostgreSQL database. Both keep the same promises (one transaction, idempotent upsert, the same validation, reason
/// codes, geocoding and import log); `importer(for:options:)` picks the one for a store.
public protocol LocationImporting: AnyObject {
    var progress: ((ImportProgress) -> Void)? { get set }
    var notice: ((String) -> Void)? { get set }
    func run(_ inputs: [ImportInput]) async throws -> ImportReport
}

extension ChainImporter: LocationImporting {}

/// The importer for `store`.
public func importer(for store: any LocationStore, options: ImportOptions) throws -> any LocationImporting {
    switch store {
    case let sqlite as SQLiteLocationStore: return ChainImporter(store: sqlite, options: options)
    case let postgis as PostGISLocationStore: return PostGISImporter(store: postgis, options: options)
    default: throw ImportError.invalidOption("no importer for a store of type \(type(of: store))")
    }
}
