import LocationStore

/// One file's counts and issues as its rows go by, the same for every store: a row's warnings are held until it is
/// accepted (a rejection drops them, since the rejection is what the admin has to act on), every issue is counted by
/// reason, the first ones are kept for the report and the first `logLimitPerReason` of each reason wait in `buffer` to
/// be written to the import log.
package struct FileLedger {
    let issueLimit: Int
    let logLimitPerReason: Int
    private var loggedByReason: [String: Int] = [:]
    package var counts = ImportCounts()
    var rejectedByReason: [String: Int] = [:]
    package var warningsByReason: [String: Int] = [:]
    package var sample: [ImportIssue] = []
    package var truncated = false
    /// Issues not yet written to the import log.
    var buffer: [ImportIssue] = []
    var rowsByNetwork: [String: Int] = [:]
    var geocodeSummary: GeocodeSummary?
    var coarse = CoarseTally()
    var rowsWithCoordinates = 0
    /// Opening hours values seen in this file, so that one not understood is warned once; bounded, since a file whose
    /// every row writes its hours differently must not grow memory with its length.
    private var openingHoursSeen = Set<String>()
    static let openingHoursSeenLimit = 10_000
    /// The current row's warnings.
    private(set) var rowIssues: [ImportIssue] = []

    package init(issueLimit: Int, logLimitPerReason: Int = .max) {
        self.issueLimit = issueLimit
        self.logLimitPerReason = logLimitPerReason
    }

    package mutating func beginRow() {
        counts.read += 1
        rowIssues.removeAll(keepingCapacity: true)
    }

    package var rowHasWarnings: Bool { !rowIssues.isEmpty }

    /// Whether this file has not shown `hours` before (past the bound, every value counts as new).
    mutating func firstSight(ofOpeningHours hours: String) -> Bool {
        guard openingHoursSeen.count < Self.openingHoursSeenLimit else { return !openingHoursSeen.contains(hours) }
        return openingHoursSeen.insert(hours).inserted
    }

    package mutating func warn(_ line: Int, _ code: ReasonCode, _ message: String, externalId: String? = nil) {
        rowIssues.append(ImportIssue(line: line, severity: .warning, code: code.rawValue, message: message, externalId: externalId))
    }

    mutating func reject(_ line: Int, _ code: ReasonCode, _ message: String, externalId: String? = nil) {
        rowIssues.removeAll(keepingCapacity: true)
        counts.rejected += 1
        log(ImportIssue(line: line, severity: .rejected, code: code.rawValue, message: message, externalId: externalId))
    }

    /// The row went into the store: its warnings are logged and it counts as warned if it has any.
    package mutating func accept(network: String) {
        rowsByNetwork[network, default: 0] += 1
        guard !rowIssues.isEmpty else { return }
        counts.warned += 1
        for issue in rowIssues { log(issue) }
    }

    /// A warning found after the rows were written (a near duplicate settled at the end); `rowWarned` says whether
    /// that row already counted as warned.
    package mutating func lateWarning(_ issue: ImportIssue, rowWarned: Bool) {
        if !rowWarned { counts.warned += 1 }
        log(issue)
    }

    /// Whether an issue of `code` would still be kept (in the report's sample or the import log): once neither keeps
    /// it, only its count matters, and the search that words it can stop at the first finding.
    func keepsIssues(_ code: ReasonCode) -> Bool {
        sample.count < issueLimit || loggedByReason[code.rawValue, default: 0] < logLimitPerReason
    }

    package mutating func takeBuffer() -> [ImportIssue] {
        defer { buffer.removeAll(keepingCapacity: true) }
        return buffer
    }

    private mutating func log(_ issue: ImportIssue) {
        if issue.severity == .rejected { rejectedByReason[issue.code, default: 0] += 1 } else { warningsByReason[issue.code, default: 0] += 1 }
        if sample.count < issueLimit { sample.append(issue) } else { truncated = true }
        let logged = loggedByReason[issue.code, default: 0]
        guard logged < logLimitPerReason else { return }
        loggedByReason[issue.code] = logged + 1
        buffer.append(issue)
    }

    package func report(file name: String, importId: Int64?, parsed: ParsedFile, mapping: ColumnMapping?, seconds: Double) -> FileReport {
        FileReport(
            importId: importId, fileName: name, fileSize: parsed.bytesRead, sha256: parsed.sha256, encoding: parsed.encoding,
            mixedEncoding: parsed.mixedEncoding, hadByteOrderMark: parsed.hadByteOrderMark, delimiter: parsed.delimiter, format: parsed.format,
            columns: mapping?.described ?? [:], headers: mapping?.headers ?? [], counts: counts,
            rejectedByReason: rejectedByReason, warningsByReason: warningsByReason, issues: sample, issuesTruncated: truncated,
            rowsByNetwork: rowsByNetwork, seconds: seconds, geocoding: geocodeSummary,
            coordinatePrecision: coarse.diagnosis(rowsWithCoordinates: rowsWithCoordinates, fileGrid: parsed.fileGridDecimals),
            coarseRows: coarse.rows)
    }
}
