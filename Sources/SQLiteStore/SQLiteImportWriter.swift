import Foundation
import Geo
import LocationStore

extension SQLiteLocationStore: NetworkDirectory {
    public func networkIds() throws -> [String] {
        let s = try db.statement("SELECT id FROM networks")
        var ids: [String] = []
        while try s.step() { ids.append(s.text(0)) }
        return ids
    }
}

extension SQLiteLocationStore: BulkImporting {
    public func beginImport(_ plan: BulkImportPlan) throws -> any BulkImportWriter {
        try beginBulkImport(expectedRows: plan.expectedRows)
        return try SQLiteImportWriter(store: self, plan: plan)
    }
}

/// Writes an import's rows into a SQLite store as they come, each in the caller's transaction with prepared statements
/// (`bulkUpsert`); what the import listed lives in the store's scratch tables (see `beginBulkImport`), so memory stays
/// flat however large the files are.
final class SQLiteImportWriter: BulkImportWriter {
    private let store: SQLiteLocationStore
    private let plan: BulkImportPlan
    private let timestamp: String
    private var counts: [Int: ImportRowCounts] = [:]
    /// Locations near the current row that the import has not listed (yet): settled in `nearExisting`, once every row
    /// is in, since a later row may still list them.
    private var unlistedNearCurrent: [(id: String, distanceMeters: Double)] = []
    private var unlistedNear: [NearExistingRow] = []
    /// Whether any location of the store has a geocoded point (then a row placed by its file forgets it).
    private var hasGeocodedLocations: Bool

    /// The rows within reach a near-duplicate search reads at most, listed or not: the store holds rows the import has
    /// not listed (yet), and a search asked for one listed neighbour should not give up at the first unlisted one.
    static let scanLimit = 4

    init(store: SQLiteLocationStore, plan: BulkImportPlan) throws {
        self.store = store
        self.plan = plan
        timestamp = SQLiteLocationStore.timestamp(Date())
        hasGeocodedLocations = try store.geocodedLocationCount() > 0
    }

    var networks: any NetworkDirectory { store }

    func startFile(_ record: ImportRecord) throws -> Int64 { try store.insertImport(record) }

    func list(_ id: String, line: Int) throws -> Int? { try store.markSeen(id, line: line) }

    func listedNeighbours(of location: Location, limit: Int) throws -> [ListedNeighbour] {
        unlistedNearCurrent.removeAll(keepingCapacity: true)
        var listed: [ListedNeighbour] = []
        for n in try store.neighbours(
            networkId: location.networkId, center: location.coordinate, withinMeters: plan.duplicateRadiusMeters,
            excludingId: location.id, limit: max(limit, Self.scanLimit), listedLimit: limit)
        {
            if let line = n.listedLine {
                listed.append(ListedNeighbour(id: n.id, line: line, distanceMeters: n.distanceMeters))
            } else {
                unlistedNearCurrent.append((n.id, n.distanceMeters))
            }
        }
        return listed
    }

    func write(_ row: ImportRow) throws {
        for n in unlistedNearCurrent {
            unlistedNear.append(
                NearExistingRow(
                    fileNumber: row.fileNumber, line: row.line, externalId: row.location.externalId, neighbourId: n.id,
                    distanceMeters: n.distanceMeters, warned: row.warned))
        }
        unlistedNearCurrent.removeAll(keepingCapacity: true)
        switch try store.bulkUpsert(row.location, timestamp: timestamp) {
        case .inserted: counts[row.fileNumber, default: ImportRowCounts()].inserted += 1
        case .updated: counts[row.fileNumber, default: ImportRowCounts()].updated += 1
        case .unchanged: break
        }
        if let provenance = row.provenance {
            try store.recordGeocodedLocation(provenance)
            hasGeocodedLocations = true
        } else if hasGeocodedLocations {
            try store.forgetGeocodedLocation(id: row.location.id)
        }
    }

    func appendIssues(_ issues: [ImportIssue], importId: Int64) throws { try store.writeIssues(issues, importId: importId) }

    func endFile() {}

    func finishRows(stage: (String) -> Void) -> [Int: ImportRowCounts] { counts }

    func nearExisting(networks: Set<String>) throws -> [NearExistingRow] {
        try unlistedNear.filter { try store.seenLine($0.neighbourId) == nil }
    }

    func removeUnlisted(networks: Set<String>) throws -> Int {
        var removed = 0
        for network in networks.sorted() { removed += try store.removeUnseen(networkId: network) }
        if hasGeocodedLocations { try store.pruneGeocodedLocations() }
        return removed
    }

    func finishFile(_ record: ImportRecord) throws { try store.finishImport(record) }

    func finish(stage: (String) -> Void) throws {
        stage("updating the spatial index")
        try store.finishBulkImport()
    }

    func abandon() { store.abandonBulkImport() }
}
