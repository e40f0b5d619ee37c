import Foundation
import Geo
import LocationStore
import PostgresNIO

extension PostGISLocationStore {
    public func insertImport(_ record: ImportRecord) async throws -> Int64 {
        try await transaction {
            let rows = try await rows(
                """
                INSERT INTO imports (file_name, file_size, sha256, encoding, options_json, started_at, status)
                VALUES (\(record.fileName), \(record.fileSize), \(record.sha256), \(record.encoding),
                    \(RecordCodec.encodeOptions(record.options)), \(record.startedAt), \(record.status))
                RETURNING id
                """)
            let id = try rows.first?.decode(Int64.self) ?? 0
            try await appendImportIssues(record.issues, importId: id)
            return id
        }
    }

    public func updateImport(_ record: ImportRecord) async throws {
        guard let id = record.id else { throw StoreError.invalidArgument("updateImport needs a record with an id") }
        try await transaction {
            try await finishImport(record)
            try await query("DELETE FROM import_issues WHERE import_id = \(id)")
            try await appendImportIssues(record.issues, importId: id)
        }
    }

    /// Updates an import's header row (status, counts, times, summaries) without touching its issues.
    public func finishImport(_ record: ImportRecord) async throws {
        guard let id = record.id else { throw StoreError.invalidArgument("finishImport needs a record with an id") }
        let c = record.counts
        try await query(
            """
            UPDATE imports SET encoding = \(record.encoding), options_json = \(RecordCodec.encodeOptions(record.options)),
                finished_at = \(record.finishedAt), status = \(record.status), rows_read = \(c.read), rows_inserted = \(c.inserted),
                rows_updated = \(c.updated), rows_unchanged = \(c.unchanged), rows_removed = \(c.removed), rows_rejected = \(c.rejected),
                rows_warned = \(c.warned), error_message = \(record.errorMessage), file_size = \(record.fileSize), sha256 = \(record.sha256),
                geocoding_json = \(RecordCodec.encodeJSON(record.geocoding)),
                precision_json = \(RecordCodec.encodeJSON(record.coordinatePrecision))
            WHERE id = \(id)
            """)
    }

    /// Appends issues in batches of one statement each (unnest of arrays), in the order given.
    public func appendImportIssues(_ issues: [ImportIssue], importId: Int64) async throws {
        try await bulkWriter.appendImportIssues(issues, importId: importId)
    }

    static let importColumns = """
        id, file_name, file_size, sha256, encoding, options_json, started_at, finished_at, status, rows_read, rows_inserted,
        rows_updated, rows_unchanged, rows_removed, rows_rejected, rows_warned, error_message, geocoding_json, precision_json
        """

    static func readImport(_ row: PostgresRow) throws -> ImportRecord {
        let (
            id, name, size, sha, encoding, options, started, finished, status, read, inserted, updated, unchanged, removed, rejected,
            warned, error, geocoding, precision
        ) = try row.decode(
            (
                Int64, String, Int64, String, String?, String, Date, Date?, String, Int64, Int64, Int64, Int64, Int64, Int64, Int64,
                String?, String?, String?
            ).self)
        return ImportRecord(
            id: id, fileName: name, fileSize: size, sha256: sha, encoding: encoding,
            options: RecordCodec.decodeOptions(options), startedAt: started, finishedAt: finished, status: status,
            counts: ImportCounts(
                read: Int(read), inserted: Int(inserted), updated: Int(updated), unchanged: Int(unchanged),
                removed: Int(removed), rejected: Int(rejected), warned: Int(warned)),
            errorMessage: error, geocoding: RecordCodec.decodeJSON(geocoding),
            coordinatePrecision: RecordCodec.decodeJSON(precision))
    }

    public func imports(limit: Int, before: Int64?) async throws -> [ImportRecord] {
        let bound = before ?? Int64.max
        return try await rows("SELECT \(unescaped: Self.importColumns) FROM imports WHERE id < \(bound) ORDER BY id DESC LIMIT \(limit)")
            .map(Self.readImport)
    }

    public func importRecord(id: Int64) async throws -> ImportRecord? {
        guard let row = try await rows("SELECT \(unescaped: Self.importColumns) FROM imports WHERE id = \(id)").first else { return nil }
        var record = try Self.readImport(row)
        for issue in try await rows(
            """
            SELECT line, severity, code, message, external_id FROM import_issues WHERE import_id = \(id) ORDER BY line, seq
            """)
        {
            let (line, severity, code, message, external) = try issue.decode((Int64, String, String, String, String?).self)
            record.issues.append(
                ImportIssue(
                    line: Int(line), severity: ImportIssue.Severity(rawValue: severity) ?? .warning,
                    code: code, message: message, externalId: external))
        }
        return record
    }
}
