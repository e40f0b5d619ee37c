/// The byte side of an import as text, without a store: what the import would act on, line by line. Property checks
/// hold it to invariants (the same file cut into any reads gives the same trace; RELIABILITY.md lists them).
///
/// `@_spi(ParseTrace)`: not part of ChainImport's API. Only `@_spi(ParseTrace) import ChainImport` sees it, so the
/// parser's types stay internal; this runs them exactly as `ChainImporter` does, minus the writes.
@_spi(ParseTrace) public enum ImportParseTrace {
    /// The import options a check varies (the ones that change how bytes are read).
    public struct Knobs: Sendable {
        public var fixedNetwork: Bool
        public var fixCoordinates: Bool
        public var encoding: TextEncoding?
        public var delimiter: UInt8?
        public var batchSize: Int
        public var maxLineBytes: Int
        public var strictUTF8: Bool
        /// The parser's block size: the same file in any reads must parse alike for a given block size.
        public var blockSize: Int

        public init(
            fixedNetwork: Bool = true, fixCoordinates: Bool = false, encoding: TextEncoding? = nil,
            delimiter: UInt8? = nil, batchSize: Int = 1024, maxLineBytes: Int = ImportOptions.defaultMaxLineBytes,
            strictUTF8: Bool = false, blockSize: Int = 1 << 20
        ) {
            self.fixedNetwork = fixedNetwork
            self.fixCoordinates = fixCoordinates
            self.encoding = encoding
            self.delimiter = delimiter
            self.batchSize = batchSize
            self.maxLineBytes = maxLineBytes
            self.strictUTF8 = strictUTF8
            self.blockSize = blockSize
        }
    }

    /// Parses `chunks` as one import file through `RowParser` and places every row with `RowInterpreter`.
    ///
    /// Returns one line per header, row, placement and end of file, then the error that stopped the parse, if any:
    /// what the import would act on, independent of how the file was cut into reads (rows are not grouped by batch).
    public static func parse(_ chunks: [[UInt8]], knobs: Knobs) -> [String] {
        var options = ImportOptions(
            network: knobs.fixedNetwork ? "trace" : nil, networkColumn: knobs.fixedNetwork ? nil : "brand",
            fixCoordinates: knobs.fixCoordinates, encoding: knobs.encoding, delimiter: knobs.delimiter)
        options.reportIssueLimit = 5
        options.maxLineBytes = knobs.maxLineBytes
        // Strict UTF-8 reads the file as UTF-8 only (ImportOptions.validate refuses it with another encoding).
        options.strictUTF8 = knobs.strictUTF8 && (knobs.encoding ?? .utf8) == .utf8
        var parser = RowParser(fileName: "trace.csv", options: options, batchSize: knobs.batchSize, blockSize: knobs.blockSize)
        let interpreter = RowInterpreter(options: options, geocoded: nil)
        var ledger = FileLedger(issueLimit: options.reportIssueLimit)
        var out: [String] = []
        func record(_ events: [ParseEvent]) {
            for event in events {
                switch event {
                case .header(let headers, let mapping):
                    let columns = mapping.columns.sorted { $0.key.rawValue < $1.key.rawValue }
                    out.append("header \(headers) \(columns)")
                case .rows(let rows, _):
                    for row in rows {
                        ledger.beginRow()
                        // The importer's order: the row's shape first (field count, NUL, bad bytes), then its point.
                        let placed =
                            RowInterpreter.screen(row, ledger: &ledger)
                            ? interpreter.place(row, importId: nil, ledger: &ledger) : nil
                        out.append("row \(row)")
                        out.append("placed \(String(describing: placed)) warnings \(ledger.rowHasWarnings)")
                    }
                case .finished(let file):
                    out.append("finished \(file)")
                }
            }
        }
        do {
            for chunk in chunks { record(try parser.consume(chunk)) }
            record(try parser.finish())
            try parser.throwPendingError()
        } catch {
            out.append("error \(error)")
        }
        out.append("ledger \(ledger.counts) \(ledger.rejectedByReason.sorted { $0.key < $1.key })")
        return out
    }
}
