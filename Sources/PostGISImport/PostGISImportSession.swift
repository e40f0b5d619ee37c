import ChainImport
import Foundation
import Geo
import LocationStore
import PostGISStore

/// The state of one `PostGISImporter.run`, inside its transaction: files' ledgers and log entries, the networks as the
/// rows resolve them, the ids the import listed, and the batch of rows not yet sent.
final class PostGISImportSession {
    let importer: PostGISImporter
    let directory: StagedNetworks
    let resolver: NetworkResolver
    let interpreter: RowInterpreter
    let startedAt: Date
    let fileCount: Int
    var store: PostGISLocationStore { importer.store }
    var options: ImportOptions { importer.options }

    private var ledgers: [FileLedger] = []
    private var records: [ImportRecord] = []
    private var reports: [FileReport] = []
    private var mappings: [ColumnMapping?] = []
    /// Every id the import listed, with the line that listed it: a second listing is a repeat. In memory, since the
    /// database cannot be asked while rows stream into it.
    private var seen: [String: Int] = [:]
    /// Rows of networks that held locations when the import began: staged, then upserted.
    private var batch: [StagedRow] = []
    /// Rows of networks new to the import's rows: nothing to conflict with, so they go straight into `locations`.
    private var direct: [StagedRow] = []
    private var directProvenance: [GeocodeProvenance] = []
    private var directCounts: [Int: Int] = [:]
    private var inFlight = BatchInFlight()
    private var indexes: BulkIndexState?
    private let timestamp: String
    /// The rows listed so far, for near duplicates within the import.
    private var grid: NearDuplicateGrid
    private var touchedNetworks = Set<String>()
    private var staged = 0
    private var fixedNetwork: String?
    private var rowsBefore = 0
    private var lastProgress = Date.distantPast

    init(importer: PostGISImporter, directory: StagedNetworks, geocoded: GeocodePass.Outcome?, startedAt: Date, fileCount: Int) {
        self.importer = importer
        self.directory = directory
        self.startedAt = startedAt
        self.fileCount = fileCount
        resolver = NetworkResolver(store: directory, category: importer.options.category, onlyKnown: importer.options.onlyKnownNetworks)
        interpreter = RowInterpreter(options: importer.options, geocoded: geocoded)
        grid = NearDuplicateGrid(radiusMeters: importer.options.duplicateRadiusMeters)
        timestamp = startedAt.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Opens the staging table and, for a load that dwarfs the table (four times the rows it holds, estimated at 100
    /// bytes a row, and 50,000 or more), takes its secondary indexes away until the end. A re-import of about the
    /// table's size keeps them: building them again would cost more than the few rows it changes.
    func begin(expectedRows: Int?) async throws {
        try await store.beginStaging()
        let existing = try await store.locationCount()
        if let expectedRows, expectedRows >= 50_000, expectedRows >= 4 * existing {
            indexes = try await store.suspendIndexes(tableIsEmpty: existing == 0)
        }
        if let expectedRows { seen.reserveCapacity(min(expectedRows, 4_000_000)) }
    }

    func importFile(_ input: ImportInput, index: Int) async throws {
        let fileStarted = Date()
        var record = ImportRecord(
            fileName: input.name, fileSize: input.size ?? 0, sha256: "", options: options.logged,
            startedAt: fileStarted, status: "running")
        assert(inFlight.isIdle, "a batch still in flight would run after the importer's own statements")
        let importId = try await store.insertImport(record)
        record.id = importId
        var ledger = FileLedger(issueLimit: options.reportIssueLimit)
        var mapping: ColumnMapping?
        var parsed: ParsedFile?
        do {
            parsed = try await readRows(input, index: index, importId: importId, ledger: &ledger, mapping: &mapping)
        } catch {
            await inFlight.abandon()
            throw error
        }
        try Task.checkCancellation()
        guard let parsed else { throw ImportError.csv(file: input.name, .emptyFile) }
        record.fileSize = parsed.bytesRead
        record.sha256 = parsed.sha256
        record.encoding = parsed.encoding
        rowsBefore += ledger.counts.read
        ledgers.append(ledger)
        records.append(record)
        mappings.append(mapping)
        reports.append(
            ledger.report(
                file: input.name, importId: options.dryRun ? nil : importId, parsed: parsed, mapping: mapping,
                seconds: Date().timeIntervalSince(fileStarted)))
    }

    /// Stages the file's rows, a batch in flight while the next is read; returns the parser's summary (nil: no header).
    private func readRows(
        _ input: ImportInput, index: Int, importId: Int64, ledger: inout FileLedger,
        mapping: inout ColumnMapping?
    ) async throws -> ParsedFile? {
        var parsed: ParsedFile?
        for try await event in ParsePipeline.events(RowParser(fileName: input.name, options: options), chunks: input.chunks) {
            switch event {
            case .header(let headers, let m):
                mapping = m
                try resolveFixedNetwork(headers: headers, mapping: m, file: input.name)
            case .rows(let rows, let bytesRead):
                // By index: `for row in rows` would copy (retain and release) every row's strings once more.
                for i in rows.indices {
                    ledger.beginRow()
                    try stageRow(rows[i], file: index, importId: importId, mapping: mapping, ledger: &ledger)
                }
                if batch.count + direct.count >= PostGISImporter.batchRows { try await flush(&ledger, importId: importId) }
                tick(input.name, index, rows: ledger.counts.read, bytes: bytesRead)
            case .finished(let summary):
                parsed = summary
            }
        }
        try await flush(&ledger, importId: importId)
        try await inFlight.settle()
        return parsed
    }

    private func resolveFixedNetwork(headers: [String], mapping: ColumnMapping, file: String) throws {
        if fixedNetwork != nil { return }
        guard let network = options.network ?? options.mapping?.network else {
            if mapping.columns[.network] == nil { throw ImportError.mapping(file: file, .noNetwork(headers: headers)) }
            return
        }
        fixedNetwork = try resolver.fixedNetwork(network)
        // As a fallback it is touched (and replaced) only if a row falls back to it.
        if !options.namesNetworkColumn { touchedNetworks.insert(fixedNetwork!) }
    }

    private func stageRow(_ row: ParsedRow, file: Int, importId: Int64, mapping: ColumnMapping?, ledger: inout FileLedger) throws {
        let line = row.line
        guard RowInterpreter.screen(row, ledger: &ledger) else { return }
        guard let (coordinate, geocodedFrom) = interpreter.place(row, importId: importId, ledger: &ledger) else { return }
        guard let networkId = try resolver.network(of: row, fallback: fixedNetwork, mapping: mapping, ledger: &ledger) else { return }
        touchedNetworks.insert(networkId)
        let name = row.name ?? directory.network(id: networkId)?.name ?? networkId
        let (location, idFromFile) = interpreter.location(
            row, networkId: networkId, name: name, coordinate: coordinate,
            importId: importId, ledger: &ledger)
        // One hash of the id, not two: a repeat (rare) puts the first line back.
        if let first = seen.updateValue(line, forKey: location.id) {
            seen[location.id] = first
            return RowInterpreter.rejectRepeat(location, idFromFile: idFromFile, firstLine: first, line: line, ledger: &ledger)
        }
        let coarse = geocodedFrom == nil ? row.coarse : nil
        // Near duplicates among the rows listed before it, in the order the SQLite store's index gives them.
        for n in grid.neighbours(network: networkId, coordinate: coordinate, excludingId: location.id) {
            ledger.warn(
                line, .nearDuplicate,
                RowInterpreter.nearDuplicateMessage(
                    distance: n.distance, otherLine: n.line, otherId: n.id, geocoded: geocodedFrom != nil, roundedAlike: coarse),
                externalId: location.externalId)
        }
        grid.insert(network: networkId, coordinate: coordinate, id: location.id, line: line, file: file)
        var provenance = geocodedFrom
        provenance?.locationId = location.id
        let staged = StagedRow(
            fileNumber: file, line: line, location: location, provenance: provenance, coarseDecimals: coarse?.decimals,
            coarseErrorMeters: coarse?.errorMeters, warned: ledger.rowHasWarnings)
        if directory.occupied.contains(networkId) {
            batch.append(staged)
        } else {
            direct.append(staged)
            if let provenance { directProvenance.append(provenance) }
            directCounts[file, default: 0] += 1
        }
        ledger.accept(network: networkId)
    }

    /// Sends the networks the rows created, the batch of rows and the issues found so far, in that order; the server
    /// stores them while the next batch is read.
    private func flush(_ ledger: inout FileLedger, importId: Int64) async throws {
        let networks = directory.takePending()
        let issues = ledger.takeBuffer()
        let direct = self.direct
        let batch = self.batch
        let writer = store.bulkWriter
        let timestamp = self.timestamp
        self.direct = []
        self.batch = []
        staged += batch.count
        try await inFlight.send(
            encode: {
                (PostGISBulkWriter.encodeLocations(direct, timestamp: timestamp), PostGISBulkWriter.encodeStaged(batch))
            },
            write: { (direct: CopyBatch, staged: CopyBatch) in
                try await writer.applyNetworkChanges(networks, aliases: [])
                try await writer.copy(direct)
                try await writer.copy(staged)
                if !issues.isEmpty { try await writer.appendImportIssues(issues, importId: importId) }
            })
    }

    /// Everything after the last row: networks, the upsert, near duplicates, `--replace-network`, provenance, the log,
    /// the store version. Returns the report.
    func finish() async throws -> ImportReport {
        assert(inFlight.isIdle, "a batch still in flight would run after the importer's own statements")
        announce("writing networks")
        try await store.applyNetworkChanges(
            directory.takePending(),
            aliases: directory.changedAliases.keys.sorted().map { directory.changedAliases[$0]! })
        var written: [Int: StagedCounts] = [:]
        if staged > 0 {
            announce("writing locations")
            try await store.analyzeStaging()
            written = try await store.upsertStaged()
        }
        for i in ledgers.indices {
            let counts = written[i] ?? StagedCounts()
            let accepted = ledgers[i].counts.read - ledgers[i].counts.rejected
            let loaded = directCounts[i] ?? 0
            ledgers[i].counts.inserted = loaded + counts.inserted
            ledgers[i].counts.updated = counts.updated
            ledgers[i].counts.unchanged = accepted - loaded - counts.inserted - counts.updated
        }
        if let indexes {
            announce("building the indexes")
            try await store.restoreIndexes(indexes)
        }
        // Only networks that held locations before can have a location the import does not list.
        let occupied = touchedNetworks.filter(directory.occupied.contains).sorted()
        announce("checking near duplicates")
        try await warnNearExisting(networks: occupied)
        var removed = 0
        var replaced: [String] = []
        if options.replaceNetwork {
            replaced = touchedNetworks.sorted()
            removed = try await store.removeUnstaged(networks: occupied)
        }
        try await store.recordGeocodedLocations(directProvenance)
        try await store.applyStagedProvenance()
        if !ledgers.isEmpty { ledgers[ledgers.count - 1].counts.removed = removed }
        let finishedAt = Date()
        var files: [FileReport] = []
        for i in ledgers.indices {
            var record = records[i]
            let issues = ledgers[i].takeBuffer()
            if let id = record.id, !issues.isEmpty { try await store.appendImportIssues(issues, importId: id) }
            var report = reports[i]
            report.counts = ledgers[i].counts
            report.warningsByReason = ledgers[i].warningsByReason
            report.issues = ledgers[i].sample
            report.issuesTruncated = ledgers[i].truncated
            record.counts = ledgers[i].counts
            record.geocoding = report.geocoding
            record.coordinatePrecision = report.coordinatePrecision
            record.finishedAt = finishedAt
            record.status = options.dryRun ? "dry-run" : "committed"
            try await store.finishImport(record)
            files.append(report)
        }
        if !options.dryRun { try await store.announceChange() }
        let created = directory.changedNetworks.keys.filter { resolver.created.contains($0) }.sorted()
        return ImportReport(
            files: files, dryRun: options.dryRun, replacedNetworks: replaced, networksCreated: created,
            seconds: finishedAt.timeIntervalSince(startedAt))
    }

    /// Rows near a location the import does not list, which was in the store before it: `near_existing`, as the
    /// SQLite import reports them at the end. (Near duplicates within the import were warned as the rows went by.)
    private func warnNearExisting(networks: [String]) async throws {
        struct RowKey: Hashable {
            var file: Int
            var line: Int
        }
        var warnedNow = Set<RowKey>()
        let radius = options.duplicateRadiusMeters
        for n in try await store.unlistedNeighbours(networks: networks, withinMeters: radius) {
            let distance = Sphere.distance(n.coordinate, n.neighbourCoordinate)
            guard distance <= radius else { continue }
            let issue = ImportIssue(
                line: n.line, severity: .warning, code: ReasonCode.nearExisting.rawValue,
                message: "within \(Int(distance.rounded())) m of \(n.neighbourId), already in the store and not in this import",
                externalId: n.externalId)
            let first = warnedNow.insert(RowKey(file: n.fileNumber, line: n.line)).inserted
            ledgers[n.fileNumber].lateWarning(issue, rowWarned: n.warned || !first)
        }
    }

    private func tick(_ name: String, _ index: Int, rows: Int, bytes: Int64) {
        guard let progress = importer.progress, Date().timeIntervalSince(lastProgress) >= options.progressInterval else { return }
        lastProgress = Date()
        progress(
            ImportProgress(
                fileName: name, fileIndex: index, fileCount: fileCount, rows: rowsBefore + rows, bytes: bytes,
                totalBytes: nil, elapsedSeconds: Date().timeIntervalSince(startedAt)))
    }

    func announce(_ stage: String) {
        guard let progress = importer.progress else { return }
        var p = ImportProgress(
            fileName: records.last?.fileName ?? "", fileIndex: max(0, records.count - 1), fileCount: fileCount,
            rows: rowsBefore, bytes: 0, totalBytes: nil, elapsedSeconds: Date().timeIntervalSince(startedAt))
        p.stage = stage
        progress(p)
    }
}
