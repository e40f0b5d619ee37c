import Foundation
import Geo

/// A store that can take a chain import: the import rules run once, in ChainImport, and hand each accepted row to the
/// store's `BulkImportWriter`, which writes it the way that store takes rows fastest (SQLite: prepared statements in
/// the caller's transaction; PostGIS: `COPY` into a staging table and one upsert at the end).
public protocol BulkImporting: LocationStore, GeocodeCache {
    /// Starts writing one import. Call inside `transaction { }`; the writer lives as long as that transaction.
    func beginImport(_ plan: BulkImportPlan) async throws -> any BulkImportWriter
}

/// What a store needs to know about an import before its first row.
public struct BulkImportPlan: Sendable {
    /// About how many rows the import brings, if known: a store may defer index upkeep for a load that dwarfs it.
    public var expectedRows: Int?
    /// Rows of one network closer than this are near duplicates.
    public var duplicateRadiusMeters: Double
    /// A dry run's transaction is rolled back: the store announces no change.
    public var dryRun: Bool

    public init(expectedRows: Int?, duplicateRadiusMeters: Double, dryRun: Bool) {
        self.expectedRows = expectedRows
        self.duplicateRadiusMeters = duplicateRadiusMeters
        self.dryRun = dryRun
    }
}

/// The store's side of one import, called in this order: `startFile`, then per row `list`, `listedNeighbours` and
/// `write` (with `appendIssues` between rows), `endFile`; after the last file `finishRows`, `nearExisting`,
/// `removeUnlisted` (for `--replace-network`), `appendIssues` and `finishFile` per file, `finish`. On any error the importer calls `abandon` and rolls back.
///
/// What the import has listed is the writer's memory, since where it lives decides the import's footprint: the SQLite
/// writer keeps it in scratch tables (flat memory however large the file), the PostGIS writer in memory (the database
/// cannot be asked while rows stream into it).
public protocol BulkImportWriter: AnyObject {
    /// Networks and aliases as the import sees them, including those it creates.
    var networks: any NetworkDirectory { get }
    /// Adds a file's entry to the import log; returns its id.
    func startFile(_ record: ImportRecord) async throws -> Int64
    /// Records that the import lists `id` at `line`: nil the first time, else the line that listed it first.
    func list(_ id: String, line: Int) throws -> Int?
    /// Rows this import listed before, of `location`'s network and within the duplicate radius of it: at most `limit`,
    /// and the search also stops after a few locations found (listed or not), so that a pile-up of rows at one point
    /// costs no more per row than a few neighbours do.
    func listedNeighbours(of location: Location, limit: Int) throws -> [ListedNeighbour]
    /// Writes (or queues) an accepted row.
    func write(_ row: ImportRow) async throws
    /// Adds issues to a file's log entry, after the rows written so far.
    func appendIssues(_ issues: [ImportIssue], importId: Int64) async throws
    /// Everything of the file is written (or on its way, in order).
    func endFile() async throws
    /// After the last row: what each file's rows did (keyed by file number); `stage` names long steps for progress.
    func finishRows(stage: (String) -> Void) async throws -> [Int: ImportRowCounts]
    /// Rows near a location of their network that was in the store before and that the import does not list.
    func nearExisting(networks: Set<String>) async throws -> [NearExistingRow]
    /// `--replace-network`: deletes the locations of `networks` the import does not list; returns how many.
    func removeUnlisted(networks: Set<String>) async throws -> Int
    /// Closes a file's log entry (status, counts, times) after its last issues, without touching the issues.
    func finishFile(_ record: ImportRecord) async throws
    /// The store's own last steps (indexes, provenance, the change announcement) before the commit.
    func finish(stage: (String) -> Void) async throws
    /// The import failed: the writer stops using the connection, so that the rollback comes after its last write.
    func abandon() async
}

/// A row an import accepted, on its way into the store.
public struct ImportRow: Sendable {
    public var fileNumber: Int
    public var line: Int
    public var location: Location
    /// Where a geocoded location's point came from; nil for a point from the file.
    public var provenance: GeocodeProvenance?
    /// Whether the row already has a warning (a later near-duplicate warning then does not count it again).
    public var warned: Bool

    public init(
        fileNumber: Int, line: Int, location: Location, provenance: GeocodeProvenance?, warned: Bool
    ) {
        self.fileNumber = fileNumber
        self.line = line
        self.location = location
        self.provenance = provenance
        self.warned = warned
    }
}

/// A row the import listed earlier, near the one being imported.
public struct ListedNeighbour: Sendable, Equatable {
    public var id: String
    public var line: Int
    public var distanceMeters: Double

    public init(id: String, line: Int, distanceMeters: Double) {
        self.id = id
        self.line = line
        self.distanceMeters = distanceMeters
    }
}

/// A listed row within the duplicate radius of a location already in the store that the import does not list.
public struct NearExistingRow: Sendable, Equatable {
    public var fileNumber: Int
    public var line: Int
    public var externalId: String
    public var neighbourId: String
    public var distanceMeters: Double
    /// Whether the row already counted as warned.
    public var warned: Bool

    public init(fileNumber: Int, line: Int, externalId: String, neighbourId: String, distanceMeters: Double, warned: Bool) {
        self.fileNumber = fileNumber
        self.line = line
        self.externalId = externalId
        self.neighbourId = neighbourId
        self.distanceMeters = distanceMeters
        self.warned = warned
    }
}

/// Per file of an import: rows inserted and rows updated (its other accepted rows were unchanged).
public struct ImportRowCounts: Sendable, Equatable {
    public var inserted = 0
    public var updated = 0

    public init(inserted: Int = 0, updated: Int = 0) {
        self.inserted = inserted
        self.updated = updated
    }
}
