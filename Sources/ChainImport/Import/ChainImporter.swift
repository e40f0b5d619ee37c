import Foundation
import Geo
import LocationStore

/// Imports chain location CSVs into a store: streaming, validating, idempotent and atomic.
///
/// All inputs of one `run` are one transaction: either every file's rows, network changes and
/// import-log entries are committed together, or (on any error, or a killed process) nothing is.
/// Rows are upserted by (network, external id), so importing the same file again reports every
/// row unchanged. Memory stays flat in the file size: bytes are tokenized chunk by chunk by a parser
/// that runs a bounded distance ahead in a task of its own (`ParsePipeline`), so parsing and the
/// store's writes use two cores; rows are written in file order as they arrive, and per-import
/// bookkeeping lives in scratch tables.
///
/// ```swift
/// let importer = ChainImporter(store: store, options: ImportOptions(network: "costco"))
/// let report = try await importer.run([try .file("costcos.csv")])
/// ```
/// An importer belongs to one task, like the store it writes to.
public final class ChainImporter {
    public let store: SQLiteLocationStore
    public let options: ImportOptions
    /// Called from the importing task every `options.progressInterval` seconds.
    public var progress: ((ImportProgress) -> Void)?
    /// Called once with things to know before long work starts (the geocoding estimate).
    public var notice: ((String) -> Void)?

    private struct Pending {
        var line: Int
        var importId: Int64?
        var fileIndex: Int
        var id: String
        var neighbourId: String
        var distance: Double
        var rowAlreadyWarned: Bool
    }

    private struct DryRunFinished: Error { var report: ImportReport }

    public init(store: SQLiteLocationStore, options: ImportOptions) {
        self.store = store
        self.options = options
    }

    /// Bytes per CSV row for the store's estimate of an import's size: chain rows with a name, an address and
    /// coordinates run 80–200 bytes, and the estimate only decides how the store maintains one index.
    package static let bytesPerRowEstimate: Int64 = 100

    /// Imports `inputs` in one transaction and returns what happened. Throws `ImportError` (or a
    /// store error) after rolling everything back; a failure is also recorded in the import log.
    public func run(_ inputs: [ImportInput]) async throws -> ImportReport {
        try options.validate()
        let started = Date()
        var attempted: (name: String, index: Int)?
        var geocoded: GeocodePass.Outcome?
        do {
            if let geocoding = options.geocoding {
                geocoded = try await GeocodePass(
                    store: store, options: options, geocoding: geocoding, progress: progress,
                    notice: notice
                )
                .run(inputs) { attempted = ($0, 0) }
            }
            let totalBytes = inputs.allSatisfy { $0.size != nil } ? inputs.reduce(0) { $0 + ($1.size ?? 0) } : nil
            var report = try await store.transaction {
                try store.beginBulkImport(expectedRows: totalBytes.map { Int($0 / Self.bytesPerRowEstimate) })
                defer { store.abandonBulkImport() }
                let session = try Session(
                    importer: self, startedAt: started, fileCount: inputs.count, totalBytes: totalBytes,
                    geocoded: geocoded)
                for (index, input) in inputs.enumerated() {
                    attempted = (input.name, index)
                    try await session.importFile(input, index: index)
                }
                let report = try session.finish()
                session.announce("updating the spatial index")
                try store.finishBulkImport()
                session.announce(options.dryRun ? "rolling back (dry run)" : "committing")
                if options.dryRun { throw DryRunFinished(report: report) }
                return report
            }
            report.geocodingPlan = geocoded.map { GeocodingPlan($0, options: options) }
            report.includeTime(since: started)
            return report
        } catch var finished as DryRunFinished {
            finished.report.includeTime(since: started)
            finished.report.geocodingPlan = geocoded.map { GeocodingPlan($0, options: options) }
            return finished.report
        } catch {
            if !options.dryRun, let attempted { recordFailure(name: attempted.name, error: error, startedAt: started) }
            throw error
        }
    }

    /// Logs a failed import after the rollback, so admins see the attempt and its reason.
    private func recordFailure(name: String, error: any Error, startedAt: Date) {
        var record = ImportRecord(
            fileName: name, fileSize: 0, sha256: "", options: options.logged, startedAt: startedAt,
            finishedAt: Date(), status: "failed", errorMessage: String(describing: error))
        if let id = try? store.insertImport(record) {
            record.id = id
            try? store.finishImport(record)
        }
    }

    /// The state of one `run`: counters, the network resolver, deferred near-duplicate checks.
    private final class Session {
        let importer: ChainImporter
        var options: ImportOptions { importer.options }
        var store: SQLiteLocationStore { importer.store }
        let resolver: NetworkResolver
        let startedAt: Date
        let timestamp: String
        let fileCount: Int
        let totalBytes: Int64?
        var files: [FileReport] = []
        var records: [ImportRecord] = []
        var touchedNetworks = Set<String>()
        var pending: [Pending] = []
        var rowsBefore = 0
        var bytesBefore: Int64 = 0
        var lastProgress = Date()
        var fixedNetwork: String?
        /// What the geocoding pass fetched, when the import geocodes.
        let geocoded: GeocodePass.Outcome?
        /// Whether any location of the store has a geocoded point (then a row placed by its file forgets it).
        var hasGeocodedLocations: Bool

        init(importer: ChainImporter, startedAt: Date, fileCount: Int, totalBytes: Int64?, geocoded: GeocodePass.Outcome?) throws {
            self.importer = importer
            self.startedAt = startedAt
            self.fileCount = fileCount
            self.totalBytes = totalBytes
            self.geocoded = geocoded
            timestamp = SQLiteLocationStore.storeTimestamp(startedAt)
            resolver = NetworkResolver(
                store: importer.store, category: importer.options.category,
                onlyKnown: importer.options.onlyKnownNetworks)
            hasGeocodedLocations = try importer.store.geocodedLocationCount() > 0
        }

        var interpreter: RowInterpreter { RowInterpreter(options: options, geocoded: geocoded) }

        func importFile(_ input: ImportInput, index: Int) async throws {
            let fileStarted = Date()
            var record = ImportRecord(
                fileName: input.name, fileSize: input.size ?? 0, sha256: "", options: options.logged,
                startedAt: fileStarted, status: "running")
            record.id = try store.insertImport(record)
            var file = FileState(session: self, input: input, index: index, importId: record.id)
            var parsed: ParsedFile?
            for try await event in ParsePipeline.events(RowParser(fileName: input.name, options: options), chunks: input.chunks) {
                switch event {
                case .header(let headers, let mapping): try file.begin(headers: headers, mapping: mapping)
                case .rows(let rows, let bytesRead): try file.importRows(rows, bytesRead: bytesRead)
                case .finished(let summary): parsed = summary
                }
            }
            // The parser ends every file it does not fail on with `.finished`; the events stop early only for a cancelled task.
            try Task.checkCancellation()
            guard let parsed else { throw ImportError.csv(file: input.name, .emptyFile) }
            try file.finishInput(parsed)
            let report = try file.report(parsed, seconds: Date().timeIntervalSince(fileStarted))
            record.fileSize = report.fileSize
            record.sha256 = report.sha256
            record.encoding = report.encoding
            record.counts = report.counts
            record.geocoding = report.geocoding
            record.coordinatePrecision = report.coordinatePrecision
            records.append(record)
            files.append(report)
            rowsBefore += report.counts.read
            bytesBefore += report.fileSize
        }

        func tick(fileName: String, fileIndex: Int, rows: Int, bytes: Int64, force: Bool = false) {
            guard let progress = importer.progress else { return }
            let now = Date()
            guard force || now.timeIntervalSince(lastProgress) >= options.progressInterval else { return }
            lastProgress = now
            progress(
                ImportProgress(
                    fileName: fileName, fileIndex: fileIndex, fileCount: fileCount, rows: rowsBefore + rows,
                    bytes: bytesBefore + bytes, totalBytes: totalBytes, elapsedSeconds: now.timeIntervalSince(startedAt)))
        }

        /// Reports a stage of the work after the rows (it has no row count or byte fraction of its own).
        func announce(_ stage: String) {
            guard let progress = importer.progress else { return }
            let name = files.last?.fileName ?? ""
            var p = ImportProgress(
                fileName: name, fileIndex: max(0, files.count - 1), fileCount: fileCount, rows: rowsBefore,
                bytes: bytesBefore, totalBytes: totalBytes, elapsedSeconds: Date().timeIntervalSince(startedAt))
            p.stage = stage
            progress(p)
        }

        func defer_(_ p: Pending) { pending.append(p) }

        private var networkNames: [String: String] = [:]

        /// The display name of a network, for rows that have no name of their own (Costco's file).
        func networkName(_ id: String) throws -> String {
            if let name = networkNames[id] { return name }
            let name = try store.network(id: id)?.name ?? id
            networkNames[id] = name
            return name
        }

        /// Resolves deferred near-duplicate checks, applies `--replace-network`, closes the log entries.
        func finish() throws -> ImportReport {
            // A neighbour that the import listed later was reported at its own line as a near duplicate;
            // one it never listed is a location already in the store.
            struct RowKey: Hashable {
                var file: Int
                var line: Int
            }
            var warnedNow = Set<RowKey>()
            for p in pending where try store.seenLine(p.neighbourId) == nil {
                let issue = ImportIssue(
                    line: p.line, severity: .warning, code: ReasonCode.nearExisting.rawValue,
                    message: "within \(Int(p.distance.rounded())) m of \(p.neighbourId), already in the store and not in this import",
                    externalId: p.id)
                if let id = p.importId { try store.appendImportIssues([issue], importId: id) }
                var f = files[p.fileIndex]
                f.warningsByReason[issue.code, default: 0] += 1
                if f.issues.count < options.reportIssueLimit { f.issues.append(issue) } else { f.issuesTruncated = true }
                if !p.rowAlreadyWarned && warnedNow.insert(RowKey(file: p.fileIndex, line: p.line)).inserted { f.counts.warned += 1 }
                files[p.fileIndex] = f
            }
            var replaced: [String] = []
            var removed = 0
            if options.replaceNetwork {
                for network in touchedNetworks.sorted() {
                    removed += try store.removeUnseen(networkId: network)
                    replaced.append(network)
                }
                if hasGeocodedLocations { try store.pruneGeocodedLocations() }
            }
            if !files.isEmpty { files[files.count - 1].counts.removed = removed }
            let finishedAt = Date()
            for (i, var record) in records.enumerated() {
                record.counts = files[i].counts
                record.geocoding = files[i].geocoding
                record.coordinatePrecision = files[i].coordinatePrecision
                record.finishedAt = finishedAt
                record.status = options.dryRun ? "dry-run" : "committed"
                try store.finishImport(record)
            }
            return ImportReport(
                files: files, dryRun: options.dryRun, replacedNetworks: replaced, networksCreated: resolver.created,
                seconds: finishedAt.timeIntervalSince(startedAt))
        }
    }

    /// One file's rows going into the store, as the parser hands them over.
    private struct FileState {
        let session: Session
        let input: ImportInput
        let index: Int
        let importId: Int64?
        var mapping: ColumnMapping?
        var ledger: FileLedger

        init(session: Session, input: ImportInput, index: Int, importId: Int64?) {
            self.session = session
            self.input = input
            self.index = index
            self.importId = importId
            ledger = FileLedger(issueLimit: session.options.reportIssueLimit)
        }

        var counts: ImportCounts { ledger.counts }

        mutating func begin(headers: [String], mapping: ColumnMapping) throws {
            self.mapping = mapping
            try resolveFixedNetwork(headers: headers)
        }

        mutating func importRows(_ rows: [ParsedRow], bytesRead: Int64) throws {
            for row in rows {
                ledger.beginRow()
                try importRow(row)
                if ledger.counts.read & 1023 == 0 {
                    session.tick(fileName: input.name, fileIndex: index, rows: ledger.counts.read, bytes: bytesRead)
                    if ledger.buffer.count >= 1000 { try flushIssues() }
                }
            }
        }

        mutating func finishInput(_ parsed: ParsedFile) throws {
            try flushIssues()
            session.tick(fileName: input.name, fileIndex: index, rows: ledger.counts.read, bytes: parsed.bytesRead, force: true)
        }

        private mutating func resolveFixedNetwork(headers: [String]) throws {
            if session.fixedNetwork != nil { return }
            guard let network = session.options.network ?? session.options.mapping?.network else {
                if mapping?.columns[.network] == nil { throw ImportError.mapping(file: input.name, .noNetwork(headers: headers)) }
                return
            }
            session.fixedNetwork = try session.resolver.fixedNetwork(network)
            // As a fallback it is touched (and replaced) only if a row falls back to it.
            if !session.options.namesNetworkColumn { session.touchedNetworks.insert(session.fixedNetwork!) }
        }

        private mutating func importRow(_ row: ParsedRow) throws {
            let line = row.line
            guard RowInterpreter.screen(row, ledger: &ledger) else { return }
            guard let (coordinate, geocodedFrom) = session.interpreter.place(row, importId: importId, ledger: &ledger) else { return }
            guard
                let networkId = try session.resolver.network(
                    of: row, fallback: session.fixedNetwork, mapping: mapping,
                    ledger: &ledger)
            else { return }
            session.touchedNetworks.insert(networkId)
            let name = try row.name ?? session.networkName(networkId)
            let (location, idFromFile) = session.interpreter.location(
                row, networkId: networkId, name: name, coordinate: coordinate,
                importId: importId, ledger: &ledger)
            if let first = try store.markSeen(location.id, line: line) {
                return RowInterpreter.rejectRepeat(location, idFromFile: idFromFile, firstLine: first, line: line, ledger: &ledger)
            }
            let roundedAlike = geocodedFrom == nil ? row.coarse : nil
            for n in try store.neighbours(
                networkId: networkId, center: coordinate, withinMeters: session.options.duplicateRadiusMeters,
                excludingId: location.id)
            {
                if let other = try store.seenLine(n.id) {
                    ledger.warn(
                        line, .nearDuplicate,
                        RowInterpreter.nearDuplicateMessage(
                            distance: n.distanceMeters, otherLine: other, otherId: n.id, geocoded: geocodedFrom != nil,
                            roundedAlike: roundedAlike), externalId: location.externalId)
                } else {
                    session.defer_(
                        Pending(
                            line: line, importId: importId, fileIndex: index, id: location.id, neighbourId: n.id,
                            distance: n.distanceMeters, rowAlreadyWarned: ledger.rowHasWarnings))
                }
            }
            switch try store.bulkUpsert(location, timestamp: session.timestamp) {
            case .inserted: ledger.counts.inserted += 1
            case .updated: ledger.counts.updated += 1
            case .unchanged: ledger.counts.unchanged += 1
            }
            if var provenance = geocodedFrom {
                provenance.locationId = location.id
                try store.recordGeocodedLocation(provenance)
                session.hasGeocodedLocations = true
            } else if session.hasGeocodedLocations {
                try store.forgetGeocodedLocation(id: location.id)
            }
            ledger.accept(network: networkId)
        }

        private mutating func flushIssues() throws {
            let issues = ledger.takeBuffer()
            guard let importId, !issues.isEmpty else { return }
            try store.appendImportIssues(issues, importId: importId)
        }

        private var store: SQLiteLocationStore { session.store }

        mutating func report(_ parsed: ParsedFile, seconds: Double) throws -> FileReport {
            try flushIssues()
            return ledger.report(
                file: input.name, importId: session.options.dryRun ? nil : importId, parsed: parsed,
                mapping: mapping, seconds: seconds)
        }
    }
}
