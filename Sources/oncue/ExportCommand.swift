import ArgumentParser
import ChainImport
import CommandLineOutput
import Foundation
import LocationStore

/// `oncue export`: a store's locations as a file `oncue import` (or ogr2ogr, QGIS, a spreadsheet) reads back.
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the store's locations as CSV, GeoJSON or GeoJSON text sequences.",
        discussion: """
            The columns (GeoJSON: properties) are the import's: \(LocationExport.columns.joined(separator: ", ")). \
            `oncue import` of the file into a fresh store gives the same locations and regions. Streamed: memory \
            stays flat at any size.

            Example:
              oncue export --db stores.sqlite --network costco --out costco.csv
              oncue export --db stores.sqlite --format geojsonseq | ogr2ogr -f GPKG stores.gpkg /vsistdin/
            """
    )

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case csv, geojson, geojsonseq
    }

    @OptionGroup var store: StoreOptions
    @OptionGroup var networks: NetworkListOptions
    @Option(help: "csv, geojson (a FeatureCollection) or geojsonseq (one feature per line, RFC 8142).") var format: Format = .csv
    @Option(help: ArgumentHelp("Write here instead of standard output (replaced only once the export is whole).", valueName: "file"))
    var out: String?

    func run() async throws {
        let wanted = networks.ids
        let export = LocationExport(format: LocationExport.Format(rawValue: format.rawValue)!, networks: wanted.isEmpty ? nil : Set(wanted))
        let stderr = FileHandleOutput.standardError
        // A file is written beside its final name and moved there at the end: a failed export leaves no half file.
        let partial = out.map { $0 + ".partial-\(ProcessInfo.processInfo.processIdentifier)" }
        if let partial {
            guard FileManager.default.createFile(atPath: partial, contents: nil) else { throw CommandFailure("cannot write \(partial)") }
        }
        let handle = partial.flatMap { FileHandle(forWritingAtPath: $0) } ?? FileHandle.standardOutput
        let tty = stderr.isTerminal && out != nil
        var lastProgress = Date()
        let count: Int
        do {
            count = try await store.withStore(readOnly: true) { store in
                let known = Set(try await store.networks().map(\.network.id))
                if let missing = wanted.first(where: { !known.contains($0) }) {
                    throw CommandFailure("no network '\(missing.forMessage())'; oncue networks list --match TEXT finds one")
                }
                return try await export.run(from: store, write: { try handle.write(contentsOf: Data($0.utf8)) }) { n in
                    guard tty, Date().timeIntervalSince(lastProgress) >= 1 else { return }
                    lastProgress = Date()
                    stderr.write("\rexported \(formatCount(n)) locations")
                }
            }
            if let partial, let out {
                try handle.close()
                _ = try? FileManager.default.removeItem(atPath: out)
                try FileManager.default.moveItem(atPath: partial, toPath: out)
            }
        } catch {
            if let partial { try? FileManager.default.removeItem(atPath: partial) }
            throw error
        }
        if tty { stderr.write("\r") }
        if out != nil || stderr.isTerminal { stderr.write("exported \(formatCount(count)) locations\(out.map { " to \($0)" } ?? "")\n") }
    }
}
