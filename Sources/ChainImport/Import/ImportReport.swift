import Foundation
import LocationStore

/// What an import did, file by file; the CLI prints it and `--json` encodes it as is.
package struct ImportReport: Sendable, Codable, Equatable {
    package var files: [FileReport]
    package var totals: ImportCounts
    package var dryRun: Bool
    /// True when the changes are in the store (false for dry runs and failures).
    package var committed: Bool
    /// Networks whose unlisted locations were removed (`--replace-network`).
    package var replacedNetworks: [String]
    package var networksCreated: [String]
    package var seconds: Double
    package var rowsPerSecond: Double
    /// The geocoding before the import: the estimate, requests sent and failures (nil when it did not geocode).
    package var geocodingPlan: GeocodingPlan?

    package init(
        files: [FileReport], totals: ImportCounts, dryRun: Bool, committed: Bool, replacedNetworks: [String],
        networksCreated: [String], seconds: Double, rowsPerSecond: Double, geocodingPlan: GeocodingPlan? = nil
    ) {
        self.files = files
        self.totals = totals
        self.dryRun = dryRun
        self.committed = committed
        self.replacedNetworks = replacedNetworks
        self.networksCreated = networksCreated
        self.seconds = seconds
        self.rowsPerSecond = rowsPerSecond
        self.geocodingPlan = geocodingPlan
    }

    /// The report of a finished import: totals over its files, committed unless it was a dry run.
    package init(files: [FileReport], dryRun: Bool, replacedNetworks: [String], networksCreated: [String], seconds: Double) {
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
        self.init(
            files: files, totals: totals, dryRun: dryRun, committed: !dryRun, replacedNetworks: replacedNetworks,
            networksCreated: networksCreated, seconds: seconds, rowsPerSecond: seconds > 0 ? Double(totals.read) / seconds : 0)
    }

    enum CodingKeys: String, CodingKey {
        case files, totals, committed, seconds
        case dryRun = "dry_run"
        case replacedNetworks = "replaced_networks"
        case networksCreated = "networks_created"
        case rowsPerSecond = "rows_per_second"
        case geocodingPlan = "geocoding"
    }
}

/// One file of an import.
package struct FileReport: Sendable, Codable, Equatable {
    /// The import log entry (nil for dry runs).
    package var importId: Int64?
    package var fileName: String
    package var fileSize: Int64
    package var sha256: String
    package var encoding: String
    /// The file's bytes were not all in one encoding (some fields UTF-8, others not).
    package var mixedEncoding: Bool
    package var hadByteOrderMark: Bool
    /// Empty for GeoJSON.
    package var delimiter: String
    /// `csv`, `geojson` (a FeatureCollection) or `geojsonseq` (a sequence of features), told from the file's bytes.
    package var format = "csv"
    /// Role → header name(s) used (for GeoJSON: the properties each role reads).
    package var columns: [String: String]
    package var headers: [String]
    package var counts: ImportCounts
    package var rejectedByReason: [String: Int]
    package var warningsByReason: [String: Int]
    /// The first issues (see `ImportOptions.reportIssueLimit`); the import log has all of them.
    package var issues: [ImportIssue]
    package var issuesTruncated: Bool
    /// Accepted rows per network.
    package var rowsByNetwork: [String: Int]
    package var seconds: Double
    /// What geocoding did for this file's rows (nil when the import did not geocode).
    package var geocoding: GeocodeSummary?
    /// Set when a large share of the rows have coordinates too coarse for a geofence.
    package var coordinatePrecision: PrecisionDiagnosis?
    /// Rows whose coordinates are too coarse for a geofence (each also has a `coarse_coordinates` warning unless geocoded).
    package var coarseRows = 0

    enum CodingKeys: String, CodingKey {
        case importId = "import_id"
        case fileName = "file_name"
        case fileSize = "file_size"
        case sha256, encoding
        case mixedEncoding = "mixed_encoding"
        case hadByteOrderMark = "byte_order_mark"
        case delimiter, format, columns, headers, counts
        case rejectedByReason = "rejected_by_reason"
        case warningsByReason = "warnings_by_reason"
        case issues
        case issuesTruncated = "issues_truncated"
        case rowsByNetwork = "rows_by_network"
        case seconds
        case geocoding
        case coordinatePrecision = "coordinate_precision"
        case coarseRows = "coarse_rows"
    }
}

extension ImportReport {
    /// Counts the whole run, the spatial index and the commit included, in `seconds` and `rowsPerSecond`.
    package mutating func includeTime(since started: Date) {
        seconds = Date().timeIntervalSince(started)
        rowsPerSecond = seconds > 0 ? Double(totals.read) / seconds : 0
    }
}
