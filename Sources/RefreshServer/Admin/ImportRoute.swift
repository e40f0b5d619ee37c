import ChainImport
import Foundation
import Hummingbird
import LocationStore
import Logging
import Synchronization

/// `POST /admin/imports`: stage the CSV on disk, import it on the blocking-work thread in one
/// transaction, answer the report, and have the serving index rebuilt if the import committed.
struct ImportRoute: Sendable {
    let databasePath: String
    let upload: ImportUpload
    let reloader: IndexReloader
    let metrics: ServerMetrics
    /// One import at a time: SQLite has one writer, and a second upload would only queue behind it.
    let running: Gate
    let geocoder: ImportQuery.GeocoderDefaults

    final class Gate: Sendable {
        private let busy = Atomic<Bool>(false)
        func tryEnter() -> Bool { busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged }
        func leave() { busy.store(false, ordering: .releasing) }
    }

    func createImport(_ request: Request, context: ServerContext) async throws -> Response {
        try RequestBodyReader.requireMediaType(request, "text/csv", alternatives: ["application/csv", "text/plain", "application/octet-stream"])
        let (options, fileName) = try ImportQuery.parse(request, geocoder: geocoder)
        guard running.tryEnter() else {
            throw APIError(.conflict, code: "import_in_progress", message: "another import is running; retry when it has finished", retryAfter: 5)
        }
        defer { running.leave() }
        let staged = try await upload.stage(request)
        defer { staged.remove() }
        let path = databasePath
        let report: ImportReport
        do {
            report = try await BlockingWorkExecutor.rebuilds.run {
                let store = try SQLiteLocationStore(path: path)
                var input = try ImportInput.file(staged.path)
                input.name = fileName
                return try await ChainImporter(store: store, options: options).run([input])
            }
        } catch let error as ImportError {
            metrics.importFinished(status: "failed", rowsRead: 0)
            throw APIError.badRequest("import_failed", error.description)
        } catch {
            metrics.importFinished(status: "failed", rowsRead: 0)
            throw error
        }
        metrics.importFinished(status: report.committed ? "committed" : (report.dryRun ? "dry-run" : "failed"), rowsRead: report.totals.read)
        if report.committed { reloader.scheduleReload() }
        context.logger.notice("import finished", metadata: [
            "file": .string(fileName), "committed": .stringConvertible(report.committed),
            "read": .stringConvertible(report.totals.read), "rejected": .stringConvertible(report.totals.rejected),
        ])
        return try AdminJSON.response(report)
    }
}
