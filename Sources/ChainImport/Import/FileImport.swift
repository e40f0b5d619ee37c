import Foundation
import LocationStore

/// One file's rows going through the import rules and into the store's writer, as the parser hands them over.
struct FileImport {
    let session: ImportSession
    let input: ImportInput
    let index: Int
    let importId: Int64
    private(set) var mapping: ColumnMapping?
    private(set) var ledger: FileLedger

    init(session: ImportSession, input: ImportInput, index: Int, importId: Int64) {
        self.session = session
        self.input = input
        self.index = index
        self.importId = importId
        ledger = FileLedger(issueLimit: session.options.reportIssueLimit, logLimitPerReason: session.options.logIssueLimitPerReason)
    }

    private var writer: any BulkImportWriter { session.writer }

    /// Locations a row's near-duplicate search stops at: a row gets one warning however many rows share its point, and
    /// a pile-up of thousands at one point costs each row this many, not all the rows before it.
    static let neighbourLimit = 4

    mutating func begin(headers: [String], mapping: ColumnMapping) throws {
        self.mapping = mapping
        try resolveFixedNetwork(headers: headers)
    }

    mutating func importRows(_ rows: [ParsedRow], bytesRead: Int64) async throws {
        // By index: `for row in rows` would copy (retain and release) every row's strings once more.
        for i in rows.indices {
            ledger.beginRow()
            if let row = try accept(rows[i]) { try await writer.write(row) }
            if ledger.counts.read & 1023 == 0 {
                session.tick(fileName: input.name, fileIndex: index, rows: ledger.counts.read, bytes: bytesRead)
                if ledger.buffer.count >= 1000 { try await flushIssues() }
                // A large import runs for seconds without suspending: a turn for the process's other tasks every
                // 1,024 rows keeps it from holding a thread of the cooperative pool throughout.
                await Task.yield()
            }
        }
    }

    mutating func finishInput(_ parsed: ParsedFile) async throws {
        try await flushIssues()
        try await writer.endFile()
        session.tick(fileName: input.name, fileIndex: index, rows: ledger.counts.read, bytes: parsed.bytesRead, force: true)
    }

    private mutating func resolveFixedNetwork(headers: [String]) throws {
        if session.fixedNetwork != nil { return }
        guard let network = session.options.network ?? session.options.mapping?.network else {
            if mapping?.columns[.network] == nil { throw ImportError.mapping(file: input.name, .noNetwork(headers: headers)) }
            return
        }
        let fixed = try session.resolver.fixedNetwork(network)
        session.fixedNetwork = fixed
        // As a fallback it is touched (and replaced) only if a row falls back to it.
        if !session.options.namesNetworkColumn { session.touchedNetworks.insert(fixed) }
    }

    /// The row as the store should take it, or nil when it is rejected or repeats a row of the import (logged).
    private mutating func accept(_ row: ParsedRow) throws -> ImportRow? {
        let line = row.line
        guard RowInterpreter.screen(row, ledger: &ledger) else { return nil }
        guard let (coordinate, geocodedFrom) = session.interpreter.place(row, importId: importId, ledger: &ledger) else { return nil }
        guard let networkId = try session.resolver.network(of: row, fallback: session.fixedNetwork, mapping: mapping, ledger: &ledger)
        else { return nil }
        session.touchedNetworks.insert(networkId)
        // A row without a name of its own stores none: it is served with its network's name of the day.
        let name = row.name ?? ""
        let (location, idFromFile) = session.interpreter.location(
            row, networkId: networkId, name: name, coordinate: coordinate, importId: importId, ledger: &ledger)
        if let first = try writer.list(location.id, line: line) {
            RowInterpreter.rejectRepeat(location, idFromFile: idFromFile, firstLine: first, line: line, ledger: &ledger)
            return nil
        }
        let coarse = geocodedFrom == nil ? row.coarse : nil
        // Once no near-duplicate warning is kept any more, one listed neighbour decides the row's warning: in a dense
        // cluster that keeps each row's search to its first hit.
        let limit = ledger.keepsIssues(.nearDuplicate) ? Self.neighbourLimit : 1
        let neighbours = try writer.listedNeighbours(of: location, limit: limit)
        if !neighbours.isEmpty {
            ledger.warn(
                line, .nearDuplicate,
                RowInterpreter.nearDuplicateMessage(
                    neighbours, radius: session.options.duplicateRadiusMeters, searchedAll: neighbours.count < limit,
                    geocoded: geocodedFrom != nil, roundedAlike: coarse), externalId: location.externalId)
        }
        var provenance = geocodedFrom
        provenance?.locationId = location.id
        let accepted = ImportRow(
            fileNumber: index, line: line, location: location, provenance: provenance, warned: ledger.rowHasWarnings)
        ledger.accept(network: networkId)
        return accepted
    }

    private mutating func flushIssues() async throws {
        let issues = ledger.takeBuffer()
        guard !issues.isEmpty else { return }
        try await writer.appendIssues(issues, importId: importId)
    }
}
