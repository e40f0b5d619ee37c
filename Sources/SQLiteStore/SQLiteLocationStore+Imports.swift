import Foundation
import LocationStore

extension SQLiteLocationStore {
    public func insertImport(_ record: ImportRecord) throws -> Int64 {
        try writeTransaction {
            let s = try db.statement(
                """
                INSERT INTO imports (file_name, file_size, sha256, encoding, options_json, started_at, status)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                """)
            s.bind(1, record.fileName)
            s.bind(2, record.fileSize)
            s.bind(3, record.sha256)
            s.bind(4, record.encoding)
            s.bind(5, RecordCodec.encodeOptions(record.options))
            s.bind(6, Self.timestamp(record.startedAt))
            s.bind(7, record.status)
            try s.step()
            let id = db.lastInsertRowID
            try writeIssues(record.issues, importId: id)
            return id
        }
    }

    /// Replaces an import's header row and its issues.
    public func updateImport(_ record: ImportRecord) throws {
        guard let id = record.id else { throw StoreError.invalidArgument("updateImport needs a record with an id") }
        try writeTransaction {
            try finishImport(record)
            let clear = try db.statement("DELETE FROM import_issues WHERE import_id = ?1")
            clear.bind(1, id)
            try clear.step()
            try writeIssues(record.issues, importId: id)
        }
    }

    func writeIssues(_ issues: [ImportIssue], importId: Int64) throws(StoreError) {
        let s = try db.statement(
            """
            INSERT INTO import_issues (import_id, line, severity, code, message, external_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            """)
        for issue in issues {
            s.reset()
            s.bind(1, importId)
            s.bind(2, issue.line)
            s.bind(3, issue.severity.rawValue)
            s.bind(4, issue.code)
            s.bind(5, issue.message)
            s.bind(6, issue.externalId)
            try s.step()
        }
    }

    static let importColumns = """
        id, file_name, file_size, sha256, encoding, options_json, started_at, finished_at, status, rows_read, rows_inserted,
        rows_updated, rows_unchanged, rows_removed, rows_rejected, rows_warned, error_message, geocoding_json, precision_json
        """

    private static func readImport(_ s: SQLiteStatement) -> ImportRecord {
        ImportRecord(
            id: s.int64(0), fileName: s.text(1), fileSize: s.int64(2), sha256: s.text(3), encoding: s.optionalText(4),
            options: RecordCodec.decodeOptions(s.text(5)), startedAt: parseTimestamp(s.text(6)) ?? Date(timeIntervalSince1970: 0),
            finishedAt: s.optionalText(7).flatMap(parseTimestamp), status: s.text(8),
            counts: ImportCounts(
                read: Int(s.int64(9)), inserted: Int(s.int64(10)), updated: Int(s.int64(11)),
                unchanged: Int(s.int64(12)), removed: Int(s.int64(13)), rejected: Int(s.int64(14)),
                warned: Int(s.int64(15))),
            errorMessage: s.optionalText(16), geocoding: RecordCodec.decodeJSON(s.optionalText(17)),
            coordinatePrecision: RecordCodec.decodeJSON(s.optionalText(18)))
    }

    public func imports(limit: Int = 100) throws(StoreError) -> [ImportRecord] { try imports(limit: limit, before: nil) }

    public func imports(limit: Int, before: Int64?) throws(StoreError) -> [ImportRecord] {
        let s = try db.statement("SELECT \(Self.importColumns) FROM imports WHERE id < ?2 ORDER BY id DESC LIMIT ?1")
        s.bind(1, limit)
        s.bind(2, before ?? Int64.max)
        var result: [ImportRecord] = []
        while try s.step() { result.append(Self.readImport(s)) }
        return result
    }

    public func importRecord(id: Int64) throws(StoreError) -> ImportRecord? {
        let s = try db.statement("SELECT \(Self.importColumns) FROM imports WHERE id = ?1")
        s.bind(1, id)
        guard try s.step() else { return nil }
        var record = Self.readImport(s)
        let i = try db.statement(
            """
            SELECT line, severity, code, message, external_id FROM import_issues WHERE import_id = ?1 ORDER BY line, rowid
            """)
        i.bind(1, id)
        while try i.step() {
            record.issues.append(
                ImportIssue(
                    line: Int(i.int64(0)), severity: ImportIssue.Severity(rawValue: i.text(1)) ?? .warning,
                    code: i.text(2), message: i.text(3), externalId: i.optionalText(4)))
        }
        return record
    }
}
