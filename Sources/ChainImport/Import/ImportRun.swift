import Foundation
import LocationStore

/// What every importer does around its transaction, whatever the store: check the options, geocode first (answers are
/// cached outside the transaction), add the time and the geocoding plan to the report, hand a dry run's report out of
/// its rolled-back transaction, and log a failed import after the rollback so admins see the attempt and its reason.
enum ImportRun {
    /// Thrown from inside the transaction by a dry run, to roll it back; carries the report out.
    struct DryRunFinished: Error {
        var report: ImportReport

        init(report: ImportReport) { self.report = report }
    }

    /// The file being read when the import failed, for the failure's log entry.
    final class Attempt {
        var input: ImportInput?

        init() {}
    }

    /// Runs `transaction` (the store's own writing of `inputs`) with the geocoding answers it needs.
    static func perform(
        _ inputs: [ImportInput], options: ImportOptions, store: any LocationStore & GeocodeCache,
        progress: ((ImportProgress) -> Void)?, notice: ((String) -> Void)?,
        logFailureElsewhere: (@Sendable (ImportRecord) async -> Void)? = nil,
        transaction: (_ geocoded: GeocodePass.Outcome?, _ attempt: Attempt) async throws -> ImportReport
    ) async throws -> ImportReport {
        try options.validate()
        let started = Date()
        let attempt = Attempt()
        var geocoded: GeocodePass.Outcome?
        do {
            if let geocoding = options.geocoding {
                geocoded = try await GeocodePass(store: store, options: options, geocoding: geocoding, progress: progress, notice: notice)
                    .run(inputs) { attempt.input = $0 }
            }
            return finished(try await transaction(geocoded, attempt), geocoded: geocoded, options: options, startedAt: started)
        } catch let dryRun as DryRunFinished {
            return finished(dryRun.report, geocoded: geocoded, options: options, startedAt: started)
        } catch {
            if !options.dryRun, let input = attempt.input {
                await recordFailure(
                    store: store, input: input, error: error, options: options, startedAt: started, elsewhere: logFailureElsewhere)
            }
            throw error
        }
    }

    /// The sum of the inputs' sizes, when every size is known.
    static func totalBytes(_ inputs: [ImportInput]) -> Int64? {
        inputs.allSatisfy { $0.size != nil } ? inputs.reduce(Int64(0)) { $0 + ($1.size ?? 0) } : nil
    }

    private static func finished(
        _ report: ImportReport, geocoded: GeocodePass.Outcome?, options: ImportOptions, startedAt: Date
    )
        -> ImportReport
    {
        var report = report
        report.geocodingPlan = geocoded.map { GeocodingPlan($0, options: options) }
        report.includeTime(since: startedAt)
        return report
    }

    /// Logs the failed attempt with the file's real size and checksum (read again: the parse may have stopped at its
    /// first bytes), so that an admin can tell which file of several failed; through `elsewhere` when the store the
    /// import failed on cannot write it.
    private static func recordFailure(
        store: any LocationStore, input: ImportInput, error: any Error, options: ImportOptions, startedAt: Date,
        elsewhere: (@Sendable (ImportRecord) async -> Void)?
    ) async {
        let fingerprint = await input.fingerprint()
        var record = ImportRecord(
            fileName: input.name, fileSize: fingerprint?.size ?? input.size ?? 0, sha256: fingerprint?.sha256 ?? "",
            options: options.logged, startedAt: startedAt, finishedAt: Date(), status: "failed",
            errorMessage: String(describing: error))
        do {
            record.id = try await store.insertImport(record)
            try? await store.updateImport(record)
        } catch {
            await elsewhere?(record)
        }
    }
}
