import Foundation
import Geo
import LocationStore

/// Imports chain location CSVs into a store: streaming, validating, idempotent and atomic.
///
/// All inputs of one `run` are one transaction: either every file's rows, network changes and
/// import-log entries are committed together, or (on any error, or a killed process) nothing is.
/// Rows are upserted by (network, external id), so importing the same file again reports every
/// row unchanged. Memory stays flat in the file size: bytes are tokenized chunk by chunk, rows are
/// written as they are read, and per-import bookkeeping lives in a temporary table.
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
    static let bytesPerRowEstimate: Int64 = 100

    /// Imports `inputs` in one transaction and returns what happened. Throws `ImportError` (or a
    /// store error) after rolling everything back; a failure is also recorded in the import log.
    public func run(_ inputs: [ImportInput]) async throws -> ImportReport {
        if options.network != nil && options.networkColumn != nil {
            throw ImportError.invalidOption("--network and --network-column exclude each other")
        }
        let started = Date()
        var attempted: (name: String, index: Int)?
        do {
            let totalBytes = inputs.allSatisfy { $0.size != nil } ? inputs.reduce(0) { $0 + ($1.size ?? 0) } : nil
            var report = try await store.transaction {
                try store.beginBulkImport(expectedRows: totalBytes.map { Int($0 / Self.bytesPerRowEstimate) })
                defer { store.abandonBulkImport() }
                let session = Session(importer: self, startedAt: started, fileCount: inputs.count, totalBytes: totalBytes)
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
            report.includeTime(since: started)
            return report
        } catch var finished as DryRunFinished {
            finished.report.includeTime(since: started)
            return finished.report
        } catch {
            if !options.dryRun, let attempted { recordFailure(name: attempted.name, error: error, startedAt: started) }
            throw error
        }
    }

    /// Logs a failed import after the rollback, so admins see the attempt and its reason.
    private func recordFailure(name: String, error: any Error, startedAt: Date) {
        var record = ImportRecord(fileName: name, fileSize: 0, sha256: "", options: options.logged, startedAt: startedAt,
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

        init(importer: ChainImporter, startedAt: Date, fileCount: Int, totalBytes: Int64?) {
            self.importer = importer
            self.startedAt = startedAt
            self.fileCount = fileCount
            self.totalBytes = totalBytes
            timestamp = SQLiteLocationStore.storeTimestamp(startedAt)
            resolver = NetworkResolver(store: importer.store, category: importer.options.category,
                                       onlyKnown: importer.options.onlyKnownNetworks)
        }

        func importFile(_ input: ImportInput, index: Int) async throws {
            let fileStarted = Date()
            var record = ImportRecord(fileName: input.name, fileSize: input.size ?? 0, sha256: "", options: options.logged,
                                      startedAt: fileStarted, status: "running")
            record.id = try store.insertImport(record)
            var file = FileState(session: self, input: input, index: index, importId: record.id)
            for try await chunk in input.chunks {
                try file.consume(chunk)
            }
            try file.finishInput()
            let report = try file.report(seconds: Date().timeIntervalSince(fileStarted))
            record.fileSize = report.fileSize
            record.sha256 = report.sha256
            record.encoding = report.encoding
            record.counts = report.counts
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
            progress(ImportProgress(fileName: fileName, fileIndex: fileIndex, fileCount: fileCount, rows: rowsBefore + rows,
                                    bytes: bytesBefore + bytes, totalBytes: totalBytes, elapsedSeconds: now.timeIntervalSince(startedAt)))
        }

        /// Reports a stage of the work after the rows (it has no row count or byte fraction of its own).
        func announce(_ stage: String) {
            guard let progress = importer.progress else { return }
            let name = files.last?.fileName ?? ""
            var p = ImportProgress(fileName: name, fileIndex: max(0, files.count - 1), fileCount: fileCount, rows: rowsBefore,
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
            struct RowKey: Hashable { var file: Int; var line: Int }
            var warnedNow = Set<RowKey>()
            for p in pending where try store.seenLine(p.neighbourId) == nil {
                let issue = ImportIssue(line: p.line, severity: .warning, code: ReasonCode.nearExisting.rawValue,
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
            }
            if !files.isEmpty { files[files.count - 1].counts.removed = removed }
            let finishedAt = Date()
            for (i, var record) in records.enumerated() {
                record.counts = files[i].counts
                record.finishedAt = finishedAt
                record.status = options.dryRun ? "dry-run" : "committed"
                try store.finishImport(record)
            }
            var totals = ImportCounts()
            for f in files {
                totals.read += f.counts.read
                totals.inserted += f.counts.inserted
                totals.updated += f.counts.updated
                totals.unchanged += f.counts.unchanged
                totals.removed += f.counts.removed
                totals.rejected += f.counts.rejected
                totals.warned += f.counts.warned
            }
            let seconds = finishedAt.timeIntervalSince(startedAt)
            return ImportReport(files: files, totals: totals, dryRun: options.dryRun, committed: !options.dryRun,
                                replacedNetworks: replaced, networksCreated: resolver.created, seconds: seconds,
                                rowsPerSecond: seconds > 0 ? Double(totals.read) / seconds : 0)
        }
    }

    /// One file streaming through: bytes → tokenizer → rows → store.
    private struct FileState {
        let session: Session
        let input: ImportInput
        let index: Int
        let importId: Int64?
        var sha = SHA256()
        var detector: EncodingDetector
        var bytesRead: Int64 = 0
        var head: [UInt8] = []
        var tokenizer: CSVTokenizer?
        var sawBOM = false
        var fields: RowFields?
        var check: CoordinateCheck
        var counts = ImportCounts()
        var rejected: [String: Int] = [:]
        var warnings: [String: Int] = [:]
        var sample: [ImportIssue] = []
        var truncated = false
        var issueBuffer: [ImportIssue] = []
        var byNetwork: [String: Int] = [:]
        var rowIssues: [ImportIssue] = []
        var nameRowFilter: (index: Int, value: String)?

        init(session: Session, input: ImportInput, index: Int, importId: Int64?) {
            self.session = session
            self.input = input
            self.index = index
            self.importId = importId
            let forced = session.options.encoding ?? session.options.mapping?.encoding.flatMap(TextEncoding.init(name:))
            detector = EncodingDetector(forced: forced)
            check = CoordinateCheck(fixCoordinates: session.options.fixCoordinates)
        }

        mutating func consume(_ chunk: [UInt8]) throws {
            bytesRead += Int64(chunk.count)
            chunk.withUnsafeBufferPointer { sha.update($0); detector.scan($0) }
            if tokenizer == nil {
                head.append(contentsOf: chunk)
                // The delimiter is detected from the whole header line, so wait for its end.
                guard head.contains(0x0A) || head.contains(0x0D) || head.count >= 1 << 16 else { return }
                try start()
                return
            }
            try feed(chunk)
        }

        mutating func finishInput() throws {
            if tokenizer == nil {
                guard !head.isEmpty else { throw ImportError.csv(file: input.name, .emptyFile) }
                try start()
            }
            detector.finish()
            do {
                var t = tokenizer!
                try t.finish { record in try self.handle(record) }
                tokenizer = t
            } catch let error as CSVError { throw ImportError.csv(file: input.name, error) }
            if fields == nil { throw ImportError.csv(file: input.name, .emptyFile) }
            try flushIssues()
            session.tick(fileName: input.name, fileIndex: index, rows: counts.read, bytes: bytesRead, force: true)
        }

        private mutating func start() throws {
            var body = head[...]
            if body.starts(with: [0xEF, 0xBB, 0xBF]) {
                sawBOM = true
                body = body.dropFirst(3)
            } else if body.starts(with: [0xFF, 0xFE]) || body.starts(with: [0xFE, 0xFF]) {
                throw ImportError.csv(file: input.name, .unsupportedEncoding("UTF-16 (byte order mark found)"))
            }
            let forced = session.options.delimiter ?? session.options.mapping?.delimiter.flatMap { $0 == "\\t" ? 0x09 : $0.utf8.first }
            tokenizer = CSVTokenizer(delimiter: forced ?? Self.detectDelimiter(body))
            check.allowDecimalComma = tokenizer!.delimiter != UInt8(ascii: ",")
            let rest = Array(body)
            head = []
            try feed(rest)
        }

        /// The most frequent of `,` `;` tab `|` outside quotes on the header line; `,` when none.
        static func detectDelimiter(_ bytes: ArraySlice<UInt8>) -> UInt8 {
            let candidates: [UInt8] = [0x2C, 0x3B, 0x09, 0x7C]
            var counts = [0, 0, 0, 0]
            var quoted = false
            for b in bytes {
                if b == 0x22 { quoted.toggle() }
                if quoted { continue }
                if b == 0x0A || b == 0x0D { break }
                if let i = candidates.firstIndex(of: b) { counts[i] += 1 }
            }
            let best = counts.indices.max { counts[$0] < counts[$1] || (counts[$0] == counts[$1] && $0 > $1) }!
            return counts[best] > 0 ? candidates[best] : 0x2C
        }

        private mutating func feed(_ bytes: [UInt8]) throws {
            var t = tokenizer!
            tokenizer = nil   // keep the tokenizer uniquely referenced while it runs
            defer { tokenizer = t }
            do {
                try bytes.withUnsafeBufferPointer { buffer in
                    try t.feed(buffer) { record in try self.handle(record) }
                }
            } catch let error as CSVError { throw ImportError.csv(file: input.name, error) }
        }

        private mutating func handle(_ record: CSVRecord) throws {
            guard let fields else {
                let headers = (0..<record.count).map { RowFields.clean(record.field($0), decoder: &detector) ?? "" }
                do throws(MappingError) {
                    fields = RowFields(mapping: try ColumnMapping(headers: headers, file: session.options.mapping,
                                                                  networkColumn: session.options.networkColumn,
                                                                  networkNameColumn: session.options.networkNameColumn))
                } catch { throw ImportError.mapping(file: input.name, error) }
                if let w = session.options.networkNameWhere {
                    let wanted = w.column.trimmingCharacters(in: .whitespaces)
                    guard let i = headers.firstIndex(where: { $0.caseInsensitiveCompare(wanted) == .orderedSame }) else {
                        throw ImportError.mapping(file: input.name, .unknownColumn(role: "network name row", column: w.column, headers: headers))
                    }
                    nameRowFilter = (i, w.value)
                }
                try resolveFixedNetwork(headers: headers)
                return
            }
            counts.read += 1
            rowIssues.removeAll(keepingCapacity: true)
            try importRow(record, fields)
            if counts.read & 1023 == 0 {
                session.tick(fileName: input.name, fileIndex: index, rows: counts.read, bytes: bytesRead)
                if issueBuffer.count >= 1000 { try flushIssues() }
            }
        }

        private mutating func resolveFixedNetwork(headers: [String]) throws {
            if session.fixedNetwork != nil { return }
            guard let network = session.options.network ?? session.options.mapping?.network else {
                if fields?.has(.network) != true { throw ImportError.mapping(file: input.name, .noNetwork(headers: headers)) }
                return
            }
            switch try session.resolver.resolve(network, displayName: network) {
            case .success(let id): session.fixedNetwork = id
            case .failure: throw ImportError.invalidOption("unknown network '\(network)' (create it with `oncue networks set`)")
            }
            session.touchedNetworks.insert(session.fixedNetwork!)
        }

        private mutating func importRow(_ record: CSVRecord, _ fields: RowFields) throws {
            let line = record.line
            if record.count > fields.mapping.headers.count, record.field(record.count - 1).contains(where: { $0 != 0x20 }) {
                warn(line, .extraFields, "\(record.count) fields, the header has \(fields.mapping.headers.count); extra ones ignored")
            }
            let region = fields.value(.region, in: record, decoder: &detector)
            let country = fields.value(.country, in: record, decoder: &detector)
            let verdict = check.check(latitude: fields.value(.latitude, in: record, decoder: &detector) ?? "",
                                      longitude: fields.value(.longitude, in: record, decoder: &detector) ?? "",
                                      region: region, country: country)
            let coordinate: Coordinate
            switch verdict {
            case .rejected(let code, let message):
                return reject(line, code, message, externalId: fields.value(.id, in: record, decoder: &detector))
            case .accepted(let c, let warning):
                coordinate = c
                if let (code, message) = warning { warn(line, code, message) }
            }

            let networkId: String
            if let fixed = session.fixedNetwork {
                networkId = fixed
            } else {
                guard let value = fields.value(.network, in: record, decoder: &detector) else {
                    return reject(line, .missingNetwork, "the \(fields.mapping.described["network"] ?? "network") column is empty")
                }
                let displayName = fields.value(.networkName, in: record, decoder: &detector)
                switch try session.resolver.resolve(value, displayName: displayName) {
                case .success(let id): networkId = id
                case .failure(.missing): return reject(line, .missingNetwork, "network value '\(value)' has no letters or digits")
                case .failure(.unknown(let v)): return reject(line, .unknownNetwork, "'\(v)' is neither a network nor an alias")
                }
                if let filter = nameRowFilter, let displayName,
                   RowFields.clean(record.field(filter.index), decoder: &detector) == filter.value {
                    try session.resolver.rename(networkId, to: displayName)
                }
                session.touchedNetworks.insert(networkId)
            }

            let address = fields.value(.address, in: record, decoder: &detector)
            let name = try fields.value(.name, in: record, decoder: &detector) ?? session.networkName(networkId)
            var postal = fields.value(.postalCode, in: record, decoder: &detector)
            if postal == nil, !fields.has(.postalCode), let address { postal = PostalCode.zipInAddress(address) }
            let isUS = country.map(USRegions.isUnitedStates) ?? (region.flatMap(USRegions.region) != nil)
            if isUS, let p = postal, let fixed = PostalCode.restoredZip(p) {
                warn(line, .zipLeadingZero, "ZIP '\(p)' lost its leading zeros; stored as \(fixed)")
                postal = fixed
            }
            let givenId = fields.value(.id, in: record, decoder: &detector)
            let externalId = givenId ?? StableId.derive(name: name, address: address, latitude: coordinate.latitude,
                                                        longitude: coordinate.longitude)
            let location = Location(networkId: networkId, externalId: externalId, name: name, address: address,
                                    city: fields.value(.city, in: record, decoder: &detector), region: region, postalCode: postal,
                                    country: country, coordinate: coordinate, sourceImportId: importId)
            if let first = try store.markSeen(location.id, line: line) {
                return givenId == nil
                    ? reject(line, .duplicateRow, "repeats line \(first) (same name, address and coordinates)", externalId: externalId)
                    : reject(line, .duplicateId, "network \(networkId) id '\(externalId)' already on line \(first)", externalId: externalId)
            }
            for n in try store.neighbours(networkId: networkId, center: coordinate, withinMeters: session.options.duplicateRadiusMeters,
                                          excludingId: location.id) {
                if let other = try store.seenLine(n.id) {
                    warn(line, .nearDuplicate,
                          "\(Int(n.distanceMeters.rounded())) m from line \(other) of the same network (\(n.id))", externalId: externalId)
                } else {
                    session.defer_(Pending(line: line, importId: importId, fileIndex: index, id: location.id, neighbourId: n.id,
                                           distance: n.distanceMeters, rowAlreadyWarned: !rowIssues.isEmpty))
                }
            }
            switch try store.bulkUpsert(location, timestamp: session.timestamp) {
            case .inserted: counts.inserted += 1
            case .updated: counts.updated += 1
            case .unchanged: counts.unchanged += 1
            }
            byNetwork[networkId, default: 0] += 1
            if !rowIssues.isEmpty {
                counts.warned += 1
                for issue in rowIssues { log(issue) }
            }
        }

        /// A rejected row's warnings are dropped: the rejection is what the admin has to act on.
        private mutating func reject(_ line: Int, _ code: ReasonCode, _ message: String, externalId: String? = nil) {
            rowIssues.removeAll(keepingCapacity: true)
            counts.rejected += 1
            log(ImportIssue(line: line, severity: .rejected, code: code.rawValue, message: message, externalId: externalId))
        }

        /// Warnings are held until the row is accepted.
        private mutating func warn(_ line: Int, _ code: ReasonCode, _ message: String, externalId: String? = nil) {
            rowIssues.append(ImportIssue(line: line, severity: .warning, code: code.rawValue, message: message, externalId: externalId))
        }

        private mutating func log(_ issue: ImportIssue) {
            if issue.severity == .rejected { rejected[issue.code, default: 0] += 1 } else { warnings[issue.code, default: 0] += 1 }
            if sample.count < session.options.reportIssueLimit { sample.append(issue) } else { truncated = true }
            issueBuffer.append(issue)
        }

        private mutating func flushIssues() throws {
            guard let importId, !issueBuffer.isEmpty else { return }
            try store.appendImportIssues(issueBuffer, importId: importId)
            issueBuffer.removeAll(keepingCapacity: true)
        }

        private var store: SQLiteLocationStore { session.store }

        mutating func report(seconds: Double) throws -> FileReport {
            try flushIssues()
            let delimiter = tokenizer.map { $0.delimiter == 0x09 ? "\\t" : String(UnicodeScalar($0.delimiter)) } ?? ","
            let encoding = detector.isMixed ? "mixed utf-8/\(detector.encoding.rawValue)" : detector.encoding.rawValue
            return FileReport(importId: session.options.dryRun ? nil : importId, fileName: input.name, fileSize: bytesRead,
                              sha256: sha.finalizeHex(), encoding: encoding, mixedEncoding: detector.isMixed, hadByteOrderMark: sawBOM,
                              delimiter: delimiter, columns: fields?.mapping.described ?? [:], headers: fields?.mapping.headers ?? [],
                              counts: counts, rejectedByReason: rejected, warningsByReason: warnings, issues: sample,
                              issuesTruncated: truncated, rowsByNetwork: byNetwork, seconds: seconds)
        }
    }
}
