import Foundation
import LocationStore

/// The state of one `ChainImporter.run`, inside its transaction: each file's ledger and log entry, the networks as the
/// rows resolve them, progress, and what happens after the last row.
final class ImportSession {
    let importer: ChainImporter
    let writer: any BulkImportWriter
    let resolver: NetworkResolver
    let interpreter: RowInterpreter
    let startedAt = Date()
    let fileCount: Int
    let totalBytes: Int64?
    var options: ImportOptions { importer.options }

    private var ledgers: [FileLedger] = []
    private var records: [ImportRecord] = []
    private var reports: [FileReport] = []
    /// Networks the rows went to (and the fixed network, which `--replace-network` replaces even with no rows).
    var touchedNetworks = Set<String>()
    /// The network of every row when the options or the mapping name one; resolved at the first file's header.
    var fixedNetwork: String?
    private var rowsBefore = 0
    private var bytesBefore: Int64 = 0
    private var lastProgress = Date()

    init(importer: ChainImporter, writer: any BulkImportWriter, fileCount: Int, totalBytes: Int64?, geocoded: GeocodePass.Outcome?) {
        self.importer = importer
        self.writer = writer
        self.fileCount = fileCount
        self.totalBytes = totalBytes
        resolver = NetworkResolver(
            store: writer.networks, category: importer.options.category, onlyKnown: importer.options.onlyKnownNetworks,
            catalogue: importer.options.usesBrandCatalogue ? .standard : nil, brandLanguage: importer.options.brandLanguage,
            namesFromColumn: importer.options.networkNameColumn != nil)
        interpreter = RowInterpreter(options: importer.options, geocoded: geocoded)
    }

    func importFile(_ input: ImportInput, index: Int) async throws {
        let fileStarted = Date()
        var record = ImportRecord(
            fileName: input.name, fileSize: input.size ?? 0, sha256: "", options: options.logged,
            startedAt: fileStarted, status: "running")
        let importId = try await writer.startFile(record)
        record.id = importId
        var file = FileImport(session: self, input: input, index: index, importId: importId)
        var parsed: ParsedFile?
        for try await event in ParsePipeline.events(RowParser(fileName: input.name, options: options), chunks: input.chunks) {
            switch event {
            case .header(let headers, let mapping): try file.begin(headers: headers, mapping: mapping)
            case .rows(let rows, let bytesRead): try await file.importRows(rows, bytesRead: bytesRead)
            case .finished(let summary): parsed = summary
            }
        }
        // The parser ends every file it does not fail on with `.finished`; the events stop early only for a cancelled task.
        try Task.checkCancellation()
        guard let parsed else { throw ImportError.csv(file: input.name, .emptyFile) }
        try await file.finishInput(parsed)
        record.fileSize = parsed.bytesRead
        record.sha256 = parsed.sha256
        record.encoding = parsed.encoding
        if parsed.format != "csv" { record.options["format"] = parsed.format }
        if let attribution = parsed.attribution { record.options["attribution"] = attribution }
        reports.append(
            file.ledger.report(
                file: input.name, importId: options.dryRun ? nil : importId, parsed: parsed, mapping: file.mapping,
                seconds: Date().timeIntervalSince(fileStarted)))
        ledgers.append(file.ledger)
        records.append(record)
        rowsBefore += file.ledger.counts.read
        bytesBefore += parsed.bytesRead
    }

    /// Everything after the last row: the writes' counts, near duplicates of unlisted locations, `--replace-network`,
    /// the log entries. Returns the report.
    func finish() async throws -> ImportReport {
        try refuseEmptyImport()
        let written = try await writer.finishRows(stage: announce)
        for i in ledgers.indices {
            let counts = written[i] ?? ImportRowCounts()
            ledgers[i].counts.inserted = counts.inserted
            ledgers[i].counts.updated = counts.updated
            ledgers[i].counts.unchanged = ledgers[i].counts.read - ledgers[i].counts.rejected - counts.inserted - counts.updated
        }
        announce("checking near duplicates")
        try await warnNearExisting()
        var removed = 0
        var replaced: [String] = []
        if options.replaceNetwork {
            replaced = touchedNetworks.sorted()
            removed = try await writer.removeUnlisted(networks: touchedNetworks)
        }
        if !ledgers.isEmpty { ledgers[ledgers.count - 1].counts.removed = removed }
        let finishedAt = Date()
        var files: [FileReport] = []
        for i in ledgers.indices {
            var record = records[i]
            let issues = ledgers[i].takeBuffer()
            if let id = record.id, !issues.isEmpty { try await writer.appendIssues(issues, importId: id) }
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
            try await writer.finishFile(record)
            files.append(report)
        }
        try await writer.finish(stage: announce)
        return ImportReport(
            files: files, dryRun: options.dryRun, replacedNetworks: replaced, networksCreated: resolver.created,
            seconds: finishedAt.timeIntervalSince(startedAt))
    }

    /// Files with a header and no row import nothing, so they must not leave a network behind either (they would
    /// otherwise create the one `--network` names, empty). Emptying a network that exists with `--replace-network` is
    /// the one use of such a file.
    private func refuseEmptyImport() throws {
        guard ledgers.allSatisfy({ $0.counts.read == 0 }), let name = records.first?.fileName else { return }
        if options.replaceNetwork, touchedNetworks.contains(where: { !resolver.created.contains($0) }) { return }
        throw ImportError.noRows(file: records.count == 1 ? name : "\(records.count) files")
    }

    /// Rows near a location the import does not list, which was in the store before it: `near_existing`, settled at
    /// the end since a later row may list it. (Near duplicates within the import were warned as the rows went by.)
    /// One warning per row, about the nearest such location and how many more there are.
    private func warnNearExisting() async throws {
        struct RowKey: Hashable {
            var file: Int
            var line: Int
        }
        var byRow: [RowKey: [NearExistingRow]] = [:]
        var order: [RowKey] = []
        for n in try await writer.nearExisting(networks: touchedNetworks) {
            let key = RowKey(file: n.fileNumber, line: n.line)
            if byRow[key] == nil { order.append(key) }
            byRow[key, default: []].append(n)
        }
        for key in order {
            let all = byRow[key]!.sorted { ($0.distanceMeters, $0.neighbourId) < ($1.distanceMeters, $1.neighbourId) }
            let n = all[0]
            var message = "within \(Int(n.distanceMeters.rounded())) m of \(n.neighbourId), already in the store and not in this import"
            if all.count > 1 { message += "; and of \(all.count - 1) more such" }
            let issue = ImportIssue(
                line: n.line, severity: .warning, code: ReasonCode.nearExisting.rawValue, message: message, externalId: n.externalId)
            ledgers[n.fileNumber].lateWarning(issue, rowWarned: n.warned)
        }
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
        var p = ImportProgress(
            fileName: records.last?.fileName ?? "", fileIndex: max(0, records.count - 1), fileCount: fileCount,
            rows: rowsBefore, bytes: bytesBefore, totalBytes: totalBytes, elapsedSeconds: Date().timeIntervalSince(startedAt))
        p.stage = stage
        progress(p)
    }
}
