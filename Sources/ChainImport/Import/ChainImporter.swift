import Foundation
import LocationStore

/// Imports chain location CSVs into a store: streaming, validating, idempotent and atomic, the same rules for every
/// store.
///
/// All inputs of one `run` are one transaction: either every file's rows, network changes and import-log entries are
/// committed together, or (on any error, or a killed process) nothing is. Rows are upserted by (network, external id),
/// so importing the same file again reports every row unchanged. Bytes are tokenized chunk by chunk by a parser that
/// runs a bounded distance ahead in a task of its own (`ParsePipeline`), so parsing and the store's writes use two
/// cores. The rules (validation, reason codes, ids, repeats, near duplicates, geocoding, the report and the log) run
/// here; each accepted row goes to the store's `BulkImportWriter`, which writes it the way that store takes rows
/// fastest and keeps what the import listed where its memory stays bounded.
///
/// ```swift
/// let importer = ChainImporter(store: store, options: ImportOptions(network: "costco"))
/// let report = try await importer.run([try .file("costcos.csv")])
/// ```
/// An importer belongs to one task, like the store it writes to.
package final class ChainImporter {
    package let store: any BulkImporting
    package let options: ImportOptions
    /// Called from the importing task every `options.progressInterval` seconds.
    package var progress: ((ImportProgress) -> Void)?
    /// Called once with things to know before long work starts (the geocoding estimate).
    package var notice: ((String) -> Void)?
    /// Called inside the transaction once every row is written, before it commits: what throws here rolls the import
    /// back (the server asks whether the uploading key is still honoured; the command line writes its audit entry).
    package var beforeCommit: ((ImportReport) async throws -> Void)?
    /// Called with a failed import's log entry when the import's own store could not write it, as when the failure
    /// was its connection's (a primary demoted in a failover, a cut session): the server writes the entry through a
    /// new connection once the database answers again. Without it such an entry is lost with the connection.
    package var logFailureElsewhere: (@Sendable (ImportRecord) async -> Void)?

    package init(store: any BulkImporting, options: ImportOptions) {
        self.store = store
        self.options = options
    }

    /// The importer for any store; throws for a store that cannot take imports.
    package convenience init(for store: any LocationStore, options: ImportOptions) throws {
        guard let importing = store as? any BulkImporting else {
            throw ImportError.invalidOption("a store of type \(type(of: store)) cannot take imports")
        }
        self.init(store: importing, options: options)
    }

    /// Bytes per CSV row for the store's estimate of an import's size: chain rows with a name, an address and
    /// coordinates run 80–200 bytes, and the estimate only decides how the store maintains its indexes.
    static let bytesPerRowEstimate: Int64 = 100

    /// Imports `inputs` in one transaction and returns what happened. Throws `ImportError` (or a
    /// store error) after rolling everything back; a failure is also recorded in the import log.
    package func run(_ inputs: [ImportInput]) async throws -> ImportReport {
        try await ImportRun.perform(
            inputs, options: options, store: store, progress: progress, notice: notice, logFailureElsewhere: logFailureElsewhere
        ) { geocoded, attempt in
            let totalBytes = ImportRun.totalBytes(inputs)
            let plan = BulkImportPlan(
                expectedRows: totalBytes.map { Int($0 / Self.bytesPerRowEstimate) },
                duplicateRadiusMeters: options.duplicateRadiusMeters, dryRun: options.dryRun)
            return try await store.transaction {
                let writer = try await store.beginImport(plan)
                do {
                    let session = ImportSession(
                        importer: self, writer: writer, fileCount: inputs.count, totalBytes: totalBytes, geocoded: geocoded)
                    for (index, input) in inputs.enumerated() {
                        attempt.input = input
                        try await session.importFile(input, index: index)
                    }
                    let report = try await session.finish()
                    session.announce(options.dryRun ? "rolling back (dry run)" : "committing")
                    if options.dryRun { throw ImportRun.DryRunFinished(report: report) }
                    try await beforeCommit?(report)
                    return report
                } catch {
                    await writer.abandon()
                    throw error
                }
            }
        }
    }
}
