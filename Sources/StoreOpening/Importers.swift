import ChainImport
import LocationStore
import PostGISImport
import PostGISStore

/// The importer for `store`: the same rules, written the way each store takes rows fastest.
public func importer(for store: any LocationStore, options: ImportOptions) throws -> any LocationImporting {
    switch store {
    case let sqlite as SQLiteLocationStore: return ChainImporter(store: sqlite, options: options)
    case let postgis as PostGISLocationStore: return PostGISImporter(store: postgis, options: options)
    default: throw ImportError.invalidOption("no importer for a store of type \(type(of: store))")
    }
}
