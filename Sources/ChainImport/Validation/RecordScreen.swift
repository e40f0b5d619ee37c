/// Checks on a whole record before its fields are decoded: its length, its field count against the header's, and NUL
/// bytes in the columns the import reads.
enum RecordScreen {
    /// A record the tokenizer did not keep because it is longer than the line limit.
    static func overlong(_ record: CSVRecord, limit: Int) -> RowIssue? {
        guard let bytes = record.overlongBytes else { return nil }
        return RowIssue(.lineTooLong, "the line is \(bytes) bytes long, more than the limit of \(limit) (--max-line-bytes); skipped")
    }

    /// A row with more fields than the header (unless the extra ones are blank, as after a trailing delimiter) has a
    /// value with an unquoted delimiter somewhere, and every column after it shifted: rejected. A row with fewer
    /// fields is read with the missing columns empty, taken to be the last ones, which is how exporters that drop
    /// trailing empty cells write them; but a missing coordinate column means a shift as likely as not, so that row is
    /// rejected too. Returns the rejection, or the warning for a short row that is kept.
    static func fieldCount(_ record: CSVRecord, mapping: ColumnMapping) -> (rejection: RowIssue?, warning: RowIssue?) {
        let expected = mapping.headers.count
        let n = record.count
        if n > expected {
            let shifted = (expected..<n).contains { record.field($0).contains { $0 != 0x20 && $0 != 0x09 } }
            guard shifted else { return (nil, nil) }
            return (
                RowIssue(
                    .fieldCount,
                    "\(n) fields, the header has \(expected): a value with an unquoted delimiter (a decimal "
                        + "comma, as in 40,1?) moved every column after it; quote such values"), nil
            )
        }
        guard n < expected else { return (nil, nil) }
        let coordinates = (mapping.columns[.latitude] ?? []) + (mapping.columns[.longitude] ?? [])
        let lost = coordinates.filter { $0 >= n }.sorted()
        if !lost.isEmpty {
            let names = lost.map { "'\(mapping.headers[$0].clipped(40))'" }.joined(separator: " and ")
            return (
                RowIssue(
                    .fieldCount,
                    "\(n) fields, the header has \(expected), and the coordinate column \(names) is among the "
                        + "missing ones: a value was left out or merged somewhere, so the coordinates may come from other columns"),
                nil
            )
        }
        return (
            nil,
            RowIssue(
                .fieldCount,
                "\(n) fields, the header has \(expected); the last \(expected - n) column"
                    + (expected - n == 1 ? "" : "s") + " read as empty")
        )
    }

    /// The first column the import reads that holds a NUL byte: stored, the value would end there (SQLite), or fail
    /// the whole import (PostgreSQL refuses NUL in text).
    static func nul(_ record: CSVRecord, mapping: ColumnMapping, also extra: Int?) -> RowIssue? {
        guard record.bytes.contains(0) else { return nil }
        var read = Set(mapping.columns.values.joined())
        if let extra { read.insert(extra) }
        guard let column = read.sorted().first(where: { record.field($0).contains(0) }) else { return nil }
        return RowIssue(
            .nulByte,
            "column '\(mapping.headers[column].clipped(40))' holds a NUL byte, which would cut the value "
                + "short: binary data, or a UTF-16 file without a byte order mark (convert it to UTF-8)?")
    }
}
