import ChainImport
import Foundation
import Geo
import LocationStore
import PostGISStore

/// Imports chain location CSVs into a PostGIS store with every promise of `ChainImporter`: one transaction for all
/// files (a failure or a killed process leaves the database as it was), an idempotent upsert by (network, id), the
/// same validation, reason codes, geocoding and import log.
///
/// Rows are parsed and judged exactly as for SQLite (`RowInterpreter`, `FileLedger`), then streamed into a temporary
/// staging table with `COPY`, a batch at a time; what needs the database happens after the last row, in bulk: the
/// networks the files created, one `INSERT … SELECT … ON CONFLICT DO UPDATE` for every location (counting inserted,
/// updated and unchanged), near duplicates found by one spatial join, `--replace-network`, provenance, the log, and a
/// bumped store version whose `NOTIFY` reaches the replicas when the transaction commits.
public final class PostGISImporter: LocationImporting {
    public let store: PostGISLocationStore
    public let options: ImportOptions
    public var progress: ((ImportProgress) -> Void)?
    public var notice: ((String) -> Void)?

    /// Rows sent to the server per `COPY`.
    static let batchRows = 20_000

    public init(store: PostGISLocationStore, options: ImportOptions) {
        self.store = store
        self.options = options
    }

    private struct DryRunFinished: Error { var report: ImportReport }

    public func run(_ inputs: [ImportInput]) async throws -> ImportReport {
        try options.validate()
        let started = Date()
        var attempted: String?
        var geocoded: GeocodePass.Outcome?
        do {
            if let geocoding = options.geocoding {
                geocoded = try await GeocodePass(store: store, options: options, geocoding: geocoding, progress: progress, notice: notice)
                    .run(inputs) { attempted = $0 }
            }
            let plan = geocoded.map { GeocodingPlan($0, options: options) }
            let directory = StagedNetworks(networks: try await store.networks())
            var report = try await store.transaction {
                let session = PostGISImportSession(
                    importer: self, directory: directory, geocoded: geocoded, startedAt: started,
                    fileCount: inputs.count)
                let totalBytes = inputs.allSatisfy { $0.size != nil } ? inputs.reduce(Int64(0)) { $0 + ($1.size ?? 0) } : nil
                try await session.begin(expectedRows: totalBytes.map { Int($0 / ChainImporter.bytesPerRowEstimate) })
                for (index, input) in inputs.enumerated() {
                    attempted = input.name
                    try await session.importFile(input, index: index)
                }
                var report = try await session.finish()
                report.geocodingPlan = plan
                if options.dryRun { throw DryRunFinished(report: report) }
                session.announce("committing")
                return report
            }
            report.includeTime(since: started)
            return report
        } catch var finished as DryRunFinished {
            finished.report.includeTime(since: started)
            return finished.report
        } catch {
            if !options.dryRun, let attempted { await recordFailure(name: attempted, error: error, startedAt: started) }
            throw error
        }
    }

    /// Logs a failed import after the rollback, so admins see the attempt and its reason.
    private func recordFailure(name: String, error: any Error, startedAt: Date) async {
        var record = ImportRecord(
            fileName: name, fileSize: 0, sha256: "", options: options.logged, startedAt: startedAt,
            finishedAt: Date(), status: "failed", errorMessage: String(describing: error))
        if let id = try? await store.insertImport(record) {
            record.id = id
            try? await store.finishImport(record)
        }
    }
}
