import Geo

/// Where OnCue keeps networks, locations and the import log.
///
/// The embedded implementation is `SQLiteLocationStore` (SQLite + SpatiaLite, one file); `PostGISLocationStore`
/// (PostgreSQL + PostGIS) is the scale-out one. Both pass the same conformance suite; `StoreAddress` opens either.
/// A store instance belongs to one task at a time; open one per task.
public protocol LocationStore: AnyObject {
    // Networks
    func networks() async throws -> [NetworkSummary]
    func network(id: String) async throws -> Network?
    /// The networks that have a Wikidata id, as (id, Wikidata id), without counting locations: cheap enough to read
    /// whenever a store is opened for writing (`rekeyBrandNetworks`).
    func brandNetworkIds() async throws -> [(id: String, wikidata: String)]
    func upsertNetwork(_ network: Network) async throws
    /// Makes `alias` (any spelling of a brand) resolve to `networkId`.
    func addAlias(_ alias: String, networkId: String) async throws
    /// The network an alias or a network id resolves to, if any.
    func resolveNetwork(_ nameOrAlias: String) async throws -> String?
    /// Removes a network with its locations, their geocoding provenance and its aliases, in one transaction; nil when
    /// there is no such network. The import log keeps what it logged.
    func deleteNetwork(id: String) async throws -> NetworkDeletion?
    /// Moves every location of network `from` into `into` where it lies, in the caller's transaction: the locations
    /// `dropping` names (ids) are deleted first; each other keeps its row, point and provenance and takes external id
    /// `renaming[its id] ?? its external id` and id `Location.makeId(into, that)`; each old id leaves a tombstone, so
    /// a server following the changes drops it. Costs what it moves, whatever the size of `into` (`mergeNetwork`).
    /// Returns the locations moved.
    func moveLocations(from: String, into: String, dropping: [String], renaming: [String: String]) async throws -> Int

    // Locations
    /// Inserts or updates locations by id in one transaction; reports what happened to each.
    func upsert(_ locations: [Location]) async throws -> [UpsertOutcome]
    func location(id: String) async throws -> Location?
    /// Deletes locations by id; returns how many existed.
    func deleteLocations(ids: [String]) async throws -> Int
    /// Ids of every location of a network.
    func locationIds(networkId: String) async throws -> Set<String>
    /// Every location of a network, in id order.
    func locations(networkId: String) async throws -> [Location]
    /// Up to `limit` locations within the radius, nearest first; equal distances ordered by id.
    func nearby(_ query: NearbyQuery) async throws -> [NearbyLocation]
    /// Every location, in batches, for building in-memory indexes.
    func forEachLocation(batchSize: Int, _ body: ([Location]) throws -> Void) async throws
    /// Every location's index fields only (a narrower, faster read; see `IndexRecord`).
    func forEachIndexRecord(batchSize: Int, _ body: ([IndexRecord]) throws -> Void) async throws
    /// The index fields of the locations within `meters` of `center` (great-circle), read through the store's spatial
    /// index: what an index for one place needs (`RegionRefreshEngine.reload(for:from:)`).
    func forEachIndexRecord(around center: Coordinate, meters: Double, batchSize: Int, _ body: ([IndexRecord]) throws -> Void) async throws
    /// The largest region radius the store itself asks for: a location's explicit radius or position uncertainty, or a
    /// network's default radius; 0 when none has one. Read from indexes, not by scanning every location.
    func largestStoredRadius() async throws -> Double
    func stats() async throws -> StoreStats

    // Changes
    /// The store's change version: bumped by every committed transaction that changes what an index serves.
    func trackedVersion() async throws -> Int64
    /// What changed after `version`, or nil when more than `limit` locations changed or the store no longer knows
    /// (`version` is older than its change tracking): then the reader builds its index from every location.
    func changes(since version: Int64, limit: Int) async throws -> StoreChanges?
    /// Forgets the tombstones of deletions at or before `version − keeping`, and moves the oldest version changes can
    /// be asked from up to there. Every change transaction does it every `ChangeHistory.pruneEvery` versions.
    func pruneChangeHistory(keeping: Int64, at version: Int64) async throws

    // Import log
    func insertImport(_ record: ImportRecord) async throws -> Int64
    func updateImport(_ record: ImportRecord) async throws
    /// The newest `limit` import records (without their issues), or the newest with an id below `before`.
    func imports(limit: Int, before: Int64?) async throws -> [ImportRecord]
    /// The record with its rejected rows and warnings.
    func importRecord(id: Int64) async throws -> ImportRecord?

    /// Runs `body` in one transaction: its writes commit together or not at all.
    func transaction<T>(_ body: () async throws -> T) async throws -> T

    // Health and life cycle
    /// The store's own consistency checks; empty when healthy.
    func verify() async throws -> [String]
    /// The names of what `verify()` checks, for the line that says they passed.
    var consistencyChecks: [String] { get }
    /// Releases the connection (a file store closes with its last reference; a database connection must be closed).
    func close() async
}

extension LocationStore {
    /// Runs `body` with this store, then closes it, whatever `body` did.
    public func closing<T>(_ body: (any LocationStore) async throws -> T) async throws -> T {
        do {
            let value = try await body(self)
            await close()
            return value
        } catch {
            await close()
            throw error
        }
    }
}
