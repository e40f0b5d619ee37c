import ChainImport
import Foundation
import HTTPTypes
import Hummingbird
import LocationStore
import Logging
import NIOCore
import RegionRefresh
import Synchronization

/// `POST /admin/imports`: stage the CSV on disk, import it on the blocking-work thread in one
/// transaction, answer the report, and have the serving index rebuilt if the import committed.
/// With `Prefer: respond-async` the answer is 202 with a job to follow at `GET /admin/jobs/{id}`.
struct ImportRoute: Sendable {
    let access: StoreAccess
    let upload: ImportUpload
    let reloader: IndexReloader
    let metrics: ServerMetrics
    /// One import or edit at a time: SQLite has one writer, and a second upload would only queue behind it.
    let running: ImportGate
    let geocoder: ImportQuery.GeocoderDefaults
    let jobs: ImportJobs
    /// Where the end of a background import is recorded.
    let audit: AuditRecorder
    /// Asked again before an upload that took minutes commits: its key may have been revoked meanwhile.
    let keys: AdminKeyRing
    let clock: ServerClock

    func register(on admin: RouterGroup<ServerContext>) {
        admin.on(RouteTable.createImport, use: createImport)
        admin.on(RouteTable.showJob, use: showJob)
    }

    func createImport(_ request: Request, context: ServerContext) async throws -> Response {
        // The body's own bytes say whether it is CSV or GeoJSON (`RowParser`); the media type only has to be one of them.
        try RequestBodyReader.requireMediaType(
            request, "text/csv",
            alternatives: [
                "application/csv", "text/plain", "application/octet-stream", "application/geo+json", "application/geo+json-seq",
                "multipart/form-data",
            ])
        let values = try ImportQuery.parse(request, geocoder: geocoder)
        if !values.deprecatedNamesUsed.isEmpty {
            context.logger.notice(
                "deprecated import parameter names used; their new names are in openapi.yaml",
                metadata: ["names": .string(values.deprecatedNamesUsed.joined(separator: ","))])
        }
        let principal = context.admin ?? .bootstrap
        // Removing what a file no longer lists can empty a network, which only a key that may delete networks may do.
        if values.options.replaceNetwork, principal.role < .admin {
            throw APIError(
                .forbidden, code: "insufficient_role",
                message:
                    "'replace_network' removes locations as deleting a network does: it needs an admin key of role 'admin'; this key is '\(principal.role.rawValue)'",
                field: "replace_network")
        }
        // Said before the file is sent, so that nobody uploads a file only to be refused; the gate itself is taken once
        // the file is staged, so that a slow upload holds nobody else.
        if let holder = running.holder { throw APIError.busy(holder, "retry when it has finished") }
        let staged = try await upload.stage(request)
        let body: UploadBody
        do { body = try UploadBody(staged, contentType: request.headers[.contentType] ?? "") } catch {
            staged.remove()
            throw error
        }
        // The upload may have taken minutes: a key revoked meanwhile begins nothing.
        guard await keys.stillHonours(principal) else {
            staged.remove()
            throw Self.revoked
        }
        let holder = ImportGate.Holder(kind: .import, keyId: principal.keyId, since: clock.now())
        if let other = await running.enter(holder) {
            staged.remove()
            throw APIError.busy(other, "retry when it has finished")
        }
        var options = values.options
        if let mapping = body.mapping { options.mapping = mapping }
        let givenName = values.fileName ?? body.fileName
        let fileName = givenName ?? UploadFileName.madeUp(head: body.head())
        if givenName == nil {
            context.logger.notice(
                "upload without a file name (file_name or Content-Disposition): logged as \(fileName)", metadata: ["file": .string(fileName)])
        }
        guard Self.wantsAsync(request) else {
            defer {
                staged.remove()
                running.leave()
            }
            let report = try await runImport(body, fileName: fileName, options: options, principal: principal, logger: context.logger, progress: nil)
            var response = try AdminJSON.response(report)
            // The store version this server serves now (a store with versions: PostGIS), so that a client can ask
            // another replica whether it has caught up (its /readyz says which version it serves).
            if let version = reloader.current.indexVersion { response.headers[Self.storeVersionHeader] = String(version) }
            return response
        }
        let id = startJob(body, staged: staged, fileName: fileName, options: options, principal: principal, context: context)
        var w = JSONWriter(capacity: 96)
        w.beginObject()
        w.key("job")
        w.string(id)
        w.key("status")
        w.string(ImportJobs.Status.running.rawValue)
        w.endObject()
        return Response(
            status: .accepted, headers: [.contentType: "application/json", .location: "/admin/jobs/\(id)"],
            body: .init(byteBuffer: w.buffer))
    }

    /// Runs the import in the background as job `id`; the staged file and the gate are released when it ends.
    private func startJob(
        _ body: UploadBody, staged: ImportUpload.Staged, fileName: String, options: ImportOptions, principal: AdminPrincipal, context: ServerContext
    ) -> String {
        let id = jobs.start()
        let logger = context.logger
        let keyId = principal.keyId
        Task { [self] in
            defer {
                staged.remove()
                running.leave()
            }
            // The request's own entry says it was accepted; this one says how the job ended.
            func audit(_ result: String, _ detail: String?) async {
                await self.audit.record(
                    AuditEntry(at: clock.now(), keyId: keyId, action: "import job", target: "/admin/jobs/\(id)", result: result, detail: detail))
            }
            do {
                let report = try await runImport(body, fileName: fileName, options: options, principal: principal, logger: logger) {
                    jobs.progress(id, $0)
                }
                jobs.finish(id, report: report)
                let logged = report.files.compactMap(\.importId).map { "import #\($0)" }.joined(separator: ", ")
                await audit(report.committed ? "committed" : "not committed", logged.isEmpty ? nil : logged)
            } catch let error as APIError {
                jobs.fail(id, error)
                await audit("failed", error.code)
            } catch {
                // As generic as the synchronous route's answer: the detail (a store's own message) goes to the log only.
                logger.error("import job failed", metadata: ["job": .string(id), "error": "\(error)"])
                jobs.fail(id, APIError(.internalServerError, code: "import_failed", message: "the import failed; the failure was logged"))
                await audit("failed", "import_failed")
            }
        }
        return id
    }

    static let storeVersionHeader = HTTPField.Name("OnCue-Store-Version")!

    /// A key revoked while its upload arrived or its import ran.
    static let revoked = APIError(
        .forbidden, code: "forbidden", message: "the admin key was revoked while its import was under way; nothing was imported")

    /// Seconds between two `uptime` readings, for the log.
    static func seconds(_ from: Duration, _ to: Duration) -> String { String(format: "%.3f", (to - from).inSeconds) }

    /// RFC 7240: `Prefer: respond-async`, possibly among other preferences.
    static func wantsAsync(_ request: Request) -> Bool {
        request.headers[values: HTTPField.Name("Prefer")!].contains { value in
            value.split(separator: ",").contains {
                $0.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "respond-async"
            }
        }
    }

    /// Imports the staged file on the blocking-work thread; a committed import has the index rebuilt.
    private func runImport(
        _ body: UploadBody, fileName: String, options: ImportOptions, principal: AdminPrincipal, logger: Logger,
        progress: (@Sendable (ImportProgress) -> Void)?
    ) async throws -> ImportReport {
        let report: ImportReport
        let started = clock.uptime()
        let keys = keys
        do {
            report = try await access.withPrimary(long: true) { store in
                var input = try body.input
                input.name = fileName
                let importer = try ChainImporter(for: store, options: options)
                if let progress { importer.progress = { progress($0) } }
                importer.logFailureElsewhere = { [self] record in logFailureLater(record, logger: logger) }
                // The rows are written; a key revoked while they were rolls them back.
                importer.beforeCommit = { _ in if !(await keys.stillHonours(principal)) { throw Self.revoked } }
                return try await importer.run([input])
            }
        } catch let error as APIError {
            metrics.importFinished(status: "failed", rowsRead: 0)
            throw error
        } catch let error as ImportError {
            metrics.importFinished(status: "failed", rowsRead: 0)
            // Well-formed, but it cannot be done: options that contradict each other, a file that cannot be imported as
            // it is (no coordinate columns, a broken CSV), geocoding required but failed.
            throw APIError.unprocessable("import_failed", ImportOptionTable.requestWording(error.description))
        } catch {
            metrics.importFinished(status: "failed", rowsRead: 0)
            throw error
        }
        metrics.importFinished(status: report.committed ? "committed" : (report.dryRun ? "dry-run" : "failed"), rowsRead: report.totals.read)
        // Read your writes: the answer waits until this process serves the committed rows (other replicas follow
        // within their poll or notification delay).
        let imported = clock.uptime()
        if report.committed, !(await reloader.reloadAndWait()) {
            logger.warning("the import committed but the index was not rebuilt in time; it serves the earlier rows meanwhile")
        }
        logger.notice(
            "import finished",
            metadata: [
                "file": .string(fileName), "committed": .stringConvertible(report.committed),
                "read": .stringConvertible(report.totals.read), "rejected": .stringConvertible(report.totals.rejected),
                // Where an import's time goes: storing the rows, then until the index serves them.
                "import_seconds": .string(Self.seconds(started, imported)),
                "serve_seconds": .string(Self.seconds(imported, clock.uptime())),
            ])
        // The rows' messages name the command line's flags; a request's options are query parameters.
        return report.reworded(ImportOptionTable.requestWording)
    }

    /// Writes a failed import's log entry through a new connection, when the import's own could not (it met a demoted
    /// primary, or was cut): in the background, every 2 s for up to a minute, as a failover completes in seconds. The
    /// admin's answer does not wait for it: the entry inside the rolled-back transaction is gone, this one says why.
    private func logFailureLater(_ record: ImportRecord, logger: Logger) {
        let access = access
        Task {
            var lastError: (any Error)?
            for _ in 0..<30 {
                do {
                    try await access.withPrimary { store in
                        var entry = record
                        entry.id = try await store.insertImport(entry)
                        try await store.updateImport(entry)
                    }
                    return
                } catch {
                    lastError = error
                    try? await clock.sleep(for: .seconds(2))
                }
            }
            logger.error(
                "a failed import could not be logged within a minute",
                metadata: ["file": .string(record.fileName), "error": "\(lastError.map { "\($0)" } ?? "")"])
        }
    }

    /// `GET /admin/jobs/{id}`: a background import's status, progress, and result or error.
    func showJob(_ request: Request, context: ServerContext) throws -> Response {
        let id = context.parameters.get("id") ?? ""
        guard id.count <= 64, let job = jobs.job(id) else { throw APIError.notFound("no import job '\(id.prefix(64))'") }
        var w = JSONWriter(capacity: 512)
        w.beginObject()
        w.key("job")
        w.string(id)
        w.key("status")
        w.string(job.status.rawValue)
        w.key("progress")
        if let p = job.progress {
            w.beginObject()
            w.key("rows")
            w.int(p.rows)
            w.key("bytes")
            w.int(Int(p.bytes))
            w.key("total_bytes")
            if let total = p.totalBytes { w.int(Int(total)) } else { w.null() }
            w.key("stage")
            w.string(p.stage)
            w.key("unit")
            w.string(p.unit)
            w.key("elapsed_seconds")
            w.number(p.elapsedSeconds)
            w.endObject()
        } else {
            w.null()
        }
        var body = w.buffer
        // The report and the error are written by their own encoders, then closed here.
        body.writeString(",\"result\":")
        if let result = job.result { body.writeBytes(try AdminJSON.encoded(result)) } else { body.writeString("null") }
        body.writeString(",\"error\":")
        if let error = job.error {
            var e = JSONWriter(capacity: 128)
            e.beginObject()
            e.key("error")
            e.string(error.code)
            e.key("message")
            e.string(error.message)
            e.endObject()
            var errorBuffer = e.buffer
            body.writeBuffer(&errorBuffer)
        } else {
            body.writeString("null")
        }
        body.writeString("}")
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
    }
}
