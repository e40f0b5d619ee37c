import ArgumentParser
import ChainImport
import CommandLineOutput
import Foundation
import LocationStore

/// `oncue imports`: the import log.
struct Imports: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imports",
        abstract: "The import log: what each import read, wrote and rejected.",
        subcommands: [List.self, Show.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Recent imports, newest first.",
            discussion: """
                Example:
                  oncue imports list --db stores.sqlite
                  oncue imports list --db stores.sqlite --limit 5 --json
                """
        )
        @OptionGroup var store: StoreOptions
        @Option(help: "How many imports to list.") var limit = 50
        @OptionGroup var output: OutputOptions

        func run() async throws {
            let records = try await store.withStore(readOnly: true) { try await $0.imports(limit: limit, before: nil) }
            if output.isJSON {
                print(try jsonString(records.map(ImportLogEntry.init)))
                return
            }
            let rows = records.map { r in
                [
                    String(r.id ?? 0), r.status, r.fileName, formatCount(r.counts.read), formatCount(r.counts.inserted),
                    formatCount(r.counts.updated), formatCount(r.counts.unchanged), formatCount(r.counts.removed),
                    formatCount(r.counts.rejected), formatCount(r.counts.warned), ImportLogEntry.time(r.startedAt),
                ]
            }
            print(
                textTable(
                    ["id", "status", "file", "read", "inserted", "updated", "unchanged", "removed", "rejected", "warned", "started"],
                    rows), terminator: "")
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One import with every rejected row and warning.",
            discussion: """
                Example:
                  oncue imports show 3 --db stores.sqlite
                  oncue imports show 3 --db stores.sqlite --json
                """
        )
        @Argument(help: "Import id (from `oncue imports list`).") var id: Int64
        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        func run() async throws {
            guard let r = try await store.withStore(readOnly: true, { try await $0.importRecord(id: id) }) else {
                throw ImportLogError.notFound(id)
            }
            if output.isJSON {
                print(try jsonString(ImportLogEntry(r)))
                return
            }
            // The log holds what files and admins wrote: every value is written out so that it cannot drive the terminal.
            print("import #\(id): \(r.status.forMessage())")
            print("file:     \(r.fileName.forMessage(limit: 200)) (\(formatCount(Int(r.fileSize))) bytes, sha256 \(r.sha256.forMessage()))")
            print("encoding: \((r.encoding ?? "-").forMessage())")
            print(
                "options:  "
                    + (r.options.isEmpty
                        ? "-"
                        : r.options.sorted { $0.key < $1.key }
                            .map { "\($0.key.forMessage())=\($0.value.forMessage(limit: 200))" }.joined(separator: " ")))
            print("started:  \(ImportLogEntry.time(r.startedAt)); finished: \(r.finishedAt.map(ImportLogEntry.time) ?? "-")")
            print("counts:   \(ImportSummary.counts(r.counts))")
            if let e = r.errorMessage { print("error:    \(e.forMessage(limit: 2_000))") }
            if let g = r.geocoding {
                print(
                    "geocoded: \(g.placed) of \(g.rows) rows at \(g.service.forMessage()) (\(g.mode)): \(g.asked) asked, \(g.fromCache) from the cache, "
                        + "not found \(g.notFound), area only \(g.ambiguous), wrong country \(g.wrongCountry), failed \(g.failed)"
                        + (g.notAsked > 0 ? ", not asked \(g.notAsked)" : "")
                        + (g.farFromOriginal > 0 ? ", far from the file's point \(g.farFromOriginal)" : ""))
            }
            if let d = r.coordinatePrecision { print("coarse:   \(d.advice)") }
            if !r.issues.isEmpty {
                print("")
                print(
                    textTable(
                        ["line", "severity", "code", "id", "message"],
                        r.issues.map { [String($0.line), $0.severity.rawValue, $0.code, $0.externalId ?? "", $0.message] }),
                    terminator: "")
            }
        }
    }
}

enum ImportLogError: Error, CustomStringConvertible {
    case notFound(Int64)
    var description: String {
        switch self {
        case .notFound(let id): "no import #\(id) in the log (see `oncue imports list`)"
        }
    }
}

/// The JSON shape of an import log entry (snake_case, ISO-8601 times).
struct ImportLogEntry: Encodable {
    var id: Int64?
    var file_name: String
    var file_size: Int64
    var sha256: String
    var encoding: String?
    var options: [String: String]
    var started_at: String
    var finished_at: String?
    var status: String
    var counts: ImportCounts
    var error_message: String?
    var geocoding: GeocodeSummary?
    var coordinate_precision: PrecisionDiagnosis?
    var issues: [ImportIssue]

    init(_ r: ImportRecord) {
        id = r.id
        file_name = r.fileName
        file_size = r.fileSize
        sha256 = r.sha256
        encoding = r.encoding
        options = r.options
        started_at = Self.time(r.startedAt)
        finished_at = r.finishedAt.map(Self.time)
        status = r.status
        counts = r.counts
        error_message = r.errorMessage
        geocoding = r.geocoding
        coordinate_precision = r.coordinatePrecision
        issues = r.issues
    }

    static func time(_ date: Date) -> String { date.formatted(.iso8601) }
}
