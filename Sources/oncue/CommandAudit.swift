import ChainImport
import Foundation
import LocationStore

/// The audit log's entries of the command line's data writes, as the key `cli`: an admin who imports or deletes from a
/// shell leaves the same trail as one who does it through /admin/*.
///
/// A write that succeeds commits with its entry (one transaction: neither without the other); one that fails is logged
/// after its rollback, as `failed` with the reason's first words. A store that keeps no audit log (none does not, today)
/// is written without one.
enum CommandAudit {
    static let keyId = "cli"

    /// Runs `body` in a transaction of `store` and appends its entry before the commit.
    static func recorded<T: Sendable>(
        _ store: any LocationStore, action: String, target: String, detail: (T) -> String? = { _ in nil }, failed: (T) -> Bool = { _ in false },
        _ body: () async throws -> T
    ) async throws -> T {
        guard let ledger = store as? any AccessLedger else { return try await body() }
        do {
            return try await store.transaction {
                let result = try await body()
                try await ledger.appendAudit(entry(action, target, result: failed(result) ? "failed" : "ok", detail: detail(result)))
                return result
            }
        } catch {
            _ = try? await ledger.appendAudit(entry(action, target, result: "failed", detail: String(describing: error)))
            throw error
        }
    }

    /// The entry of a command's write.
    static func entry(_ action: String, _ target: String, result: String, detail: String? = nil) -> AuditEntry {
        AuditEntry(at: Date(), keyId: keyId, action: action, target: target, result: result, detail: detail)
    }
}

extension CommandAudit {
    /// Runs `importer` on `inputs` of `files`: the entry, which names the files and the options as given, commits with
    /// the rows (the importer owns the transaction); a failed import is logged after its rollback, and a dry run, which
    /// commits nothing, leaves no entry.
    static func recordedImport(
        _ importer: ChainImporter, of inputs: [ImportInput], into store: any LocationStore, files: [String]
    ) async throws -> ImportReport {
        let options = importer.options
        let target = (files.map { ($0 as NSString).lastPathComponent } + options.logged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
            .joined(separator: " ")
        let ledger = store as? any AccessLedger
        importer.beforeCommit = { report in
            let detail = "\(report.totals.read) rows read, \(report.totals.rejected) rejected"
            try await ledger?.appendAudit(entry("import", target, result: "ok", detail: detail))
        }
        do { return try await importer.run(inputs) } catch {
            if !options.dryRun { _ = try? await ledger?.appendAudit(entry("import", target, result: "failed", detail: "\(error)")) }
            throw error
        }
    }
}
