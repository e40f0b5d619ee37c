import Foundation

/// One entry of the import log: a file loaded into the store and what happened to its rows.
public struct ImportRecord: Sendable, Hashable, Codable {
    public var id: Int64?
    public var fileName: String
    public var fileSize: Int64
    /// SHA-256 of the file's bytes, hex.
    public var sha256: String
    public var encoding: String?
    /// The options the import ran with (network, mapping, dry run, replace), as given.
    public var options: [String: String]
    public var startedAt: Date
    public var finishedAt: Date?
    /// running, committed, dry-run, failed
    public var status: String
    public var counts: ImportCounts
    public var issues: [ImportIssue]
    public var errorMessage: String?
    /// What geocoding did, when the import geocoded.
    public var geocoding: GeocodeSummary?
    /// The file-level diagnosis of coarse coordinates, when a large share of rows is coarse.
    public var coordinatePrecision: PrecisionDiagnosis?

    public init(
        id: Int64? = nil, fileName: String, fileSize: Int64, sha256: String, encoding: String? = nil,
        options: [String: String] = [:], startedAt: Date, finishedAt: Date? = nil, status: String,
        counts: ImportCounts = ImportCounts(), issues: [ImportIssue] = [], errorMessage: String? = nil,
        geocoding: GeocodeSummary? = nil, coordinatePrecision: PrecisionDiagnosis? = nil
    ) {
        self.id = id
        self.fileName = fileName
        self.fileSize = fileSize
        self.sha256 = sha256
        self.encoding = encoding
        self.options = options
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.status = status
        self.counts = counts
        self.issues = issues
        self.errorMessage = errorMessage
        self.geocoding = geocoding
        self.coordinatePrecision = coordinatePrecision
    }
}

public struct ImportCounts: Sendable, Hashable, Codable {
    public var read = 0
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    public var removed = 0
    public var rejected = 0
    public var warned = 0

    public init(read: Int = 0, inserted: Int = 0, updated: Int = 0, unchanged: Int = 0, removed: Int = 0, rejected: Int = 0, warned: Int = 0) {
        self.read = read
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.removed = removed
        self.rejected = rejected
        self.warned = warned
    }
}

/// A rejected row or a warning, with the line it came from and a machine-readable reason code.
public struct ImportIssue: Sendable, Hashable, Codable {
    public enum Severity: String, Sendable, Codable { case rejected, warning }
    public var line: Int
    public var severity: Severity
    public var code: String
    public var message: String
    public var externalId: String?

    public init(line: Int, severity: Severity, code: String, message: String, externalId: String? = nil) {
        self.line = line
        self.severity = severity
        self.code = code
        self.message = message
        self.externalId = externalId
    }
}
