import Foundation
import Geo
import LocationStore

extension PostGISLocationStore: BulkImporting {
    public func beginImport(_ plan: BulkImportPlan) async throws -> any BulkImportWriter {
        let writer = PostGISImportWriter(store: self, plan: plan, directory: StagedNetworks(networks: try await networks(counts: .occupancy)))
        try await writer.begin()
        return writer
    }
}

/// Writes an import's rows into PostGIS: streamed into a temporary staging table with `COPY`, a batch in flight while
/// the importer reads the next; what needs the database happens after the last row, in bulk: the networks the files
/// created, one `INSERT … SELECT … ON CONFLICT DO UPDATE` for every location (counting inserted, updated and
/// unchanged), near duplicates of unlisted locations by one spatial join, `--replace-network`, provenance, and a bumped
/// store version whose `NOTIFY` reaches the replicas when the transaction commits.
///
/// What the import listed is kept in memory (ids, and a grid for near duplicates), since the database cannot be asked
/// while rows stream into it.
final class PostGISImportWriter: BulkImportWriter {
    /// Rows sent to the server per `COPY`.
    static let batchRows = 20_000

    private let store: PostGISLocationStore
    private let plan: BulkImportPlan
    private let directory: StagedNetworks
    private let timestamp: String
    /// Every id the import listed, with the line that listed it.
    private var seen: [String: Int] = [:]
    /// The rows listed so far, for near duplicates within the import.
    private var grid: NearDuplicateGrid
    /// Rows of networks that held locations when the import began: staged, then upserted.
    private var batch: [ImportRow] = []
    /// Rows of networks new to the import's rows: nothing to conflict with, so they go straight into `locations`.
    private var direct: [ImportRow] = []
    private var directProvenance: [GeocodeProvenance] = []
    private var directCounts: [Int: Int] = [:]
    private var issues: [ImportIssue] = []
    private var issuesImportId: Int64?
    private var inFlight = BatchInFlight()
    private var indexes: BulkIndexState?
    private var staged = 0
    /// The import's change version, taken when it begins (`PostGISLocationStore.noteChange`).
    private var changeVersion: Int64 = 0

    init(store: PostGISLocationStore, plan: BulkImportPlan, directory: StagedNetworks) {
        self.store = store
        self.plan = plan
        self.directory = directory
        grid = NearDuplicateGrid(radiusMeters: plan.duplicateRadiusMeters)
        timestamp = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    var networks: any NetworkDirectory { directory }

    /// Opens the staging table and, for a load that dwarfs the table (four times the rows it holds, and 50,000 or
    /// more), takes its secondary indexes away until the end. A re-import of about the table's size keeps them:
    /// building them again would cost more than the few rows it changes.
    fileprivate func begin() async throws {
        try await store.beginStaging()
        changeVersion = try await store.noteChange()
        // Counted only as far as the decision needs: a small import into a large store must not read every row.
        if let expected = plan.expectedRows, expected >= 50_000 {
            let existing = try await store.locationCount(atMost: expected / 4 + 1)
            if expected >= 4 * existing { indexes = try await store.suspendIndexes(tableIsEmpty: existing == 0) }
        }
        if let expected = plan.expectedRows { seen.reserveCapacity(min(expected, 4_000_000)) }
    }

    func startFile(_ record: ImportRecord) async throws -> Int64 {
        try await inFlight.settle()
        return try await store.insertImport(record)
    }

    func list(_ id: String, line: Int) -> Int? {
        // One hash of the id, not two: a repeat (rare) puts the first line back.
        guard let first = seen.updateValue(line, forKey: id) else { return nil }
        seen[id] = first
        return first
    }

    func listedNeighbours(of location: Location, limit: Int) -> [ListedNeighbour] {
        grid.neighbours(network: location.networkId, coordinate: location.coordinate, excludingId: location.id, limit: limit).map {
            ListedNeighbour(id: $0.id, line: $0.line, distanceMeters: $0.distance)
        }
    }

    func write(_ row: ImportRow) async throws {
        grid.insert(
            network: row.location.networkId, coordinate: row.location.coordinate, id: row.location.id, line: row.line,
            file: row.fileNumber)
        if directory.occupied.contains(row.location.networkId) {
            batch.append(row)
        } else {
            direct.append(row)
            if let provenance = row.provenance { directProvenance.append(provenance) }
            directCounts[row.fileNumber, default: 0] += 1
        }
        if batch.count + direct.count >= Self.batchRows { try await flush() }
    }

    func appendIssues(_ issues: [ImportIssue], importId: Int64) async throws {
        if issuesImportId != importId, !self.issues.isEmpty { try await flush() }
        issuesImportId = importId
        self.issues.append(contentsOf: issues)
    }

    func endFile() async throws {
        try await flush()
        try await inFlight.settle()
    }

    /// Sends the networks the rows created, the batch of rows and the issues found so far, in that order; the server
    /// stores them while the importer reads the next batch.
    private func flush() async throws {
        let networks = directory.takePending()
        guard !(networks.isEmpty && direct.isEmpty && batch.isEmpty && issues.isEmpty) else { return }
        let (direct, batch, issues, importId) = (self.direct, self.batch, self.issues, issuesImportId)
        let writer = store.bulkWriter
        let timestamp = self.timestamp
        let version = changeVersion
        self.direct = []
        self.batch = []
        self.issues = []
        staged += batch.count
        try await inFlight.send(
            encode: {
                (PostGISBulkWriter.encodeLocations(direct, timestamp: timestamp, changeVersion: version), PostGISBulkWriter.encodeStaged(batch))
            },
            write: { (direct: CopyBatch, staged: CopyBatch) in
                try await writer.applyNetworkChanges(networks, aliases: [], changeVersion: version)
                try await writer.copy(direct)
                try await writer.copy(staged)
                if let importId, !issues.isEmpty { try await writer.appendImportIssues(issues, importId: importId) }
            })
    }

    func finishRows(stage: (String) -> Void) async throws -> [Int: ImportRowCounts] {
        try await endFile()
        stage("writing networks")
        try await store.applyNetworkChanges(
            directory.takePending(),
            aliases: directory.changedAliases.keys.sorted().map { directory.changedAliases[$0]! })
        var counts: [Int: ImportRowCounts] = [:]
        if staged > 0 {
            stage("writing locations")
            try await store.analyzeStaging()
            counts = try await store.upsertStaged()
        }
        for (file, loaded) in directCounts { counts[file, default: ImportRowCounts()].inserted += loaded }
        if let indexes {
            stage("building the indexes")
            try await store.restoreIndexes(indexes)
        }
        return counts
    }

    /// Only networks that held locations before can have a location the import does not list.
    private func occupied(_ networks: Set<String>) -> [String] { networks.filter(directory.occupied.contains).sorted() }

    func nearExisting(networks: Set<String>) async throws -> [NearExistingRow] {
        try await store.unlistedNeighbours(networks: occupied(networks), withinMeters: plan.duplicateRadiusMeters)
    }

    func removeUnlisted(networks: Set<String>) async throws -> Int {
        try await store.removeUnstaged(networks: occupied(networks))
    }

    func finishFile(_ record: ImportRecord) async throws {
        try await endFile()
        try await store.finishImport(record)
    }

    func finish(stage: (String) -> Void) async throws {
        try await store.recordGeocodedLocations(directProvenance)
        try await store.applyStagedProvenance()
        if !plan.dryRun { try await store.announceChange() }
    }

    func abandon() async { await inFlight.abandon() }
}
