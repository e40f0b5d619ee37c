/// The networks and aliases an import resolves row values against and creates networks in, synchronously (a row's
/// network is decided before the next row is read): the SQLite store answers from its file inside the import's
/// transaction; the PostGIS writer answers from a copy in memory and writes the changes before the rows.
public protocol NetworkDirectory: AnyObject {
    func network(id: String) throws -> Network?
    func resolveNetwork(_ nameOrAlias: String) throws -> String?
    func upsertNetwork(_ network: Network) throws
    func addAlias(_ alias: String, networkId: String) throws
    /// Every network's id (to find a new id's look-alikes, see `NetworkText`).
    func networkIds() throws -> [String]
}
