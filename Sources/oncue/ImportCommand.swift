import ArgumentParser
import ChainImport
import CommandLineOutput
import Foundation
import LocationStore

/// `oncue import`: a thin shell over `ChainImporter`.
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import chain location CSV or GeoJSON files into a store (streaming, validated, idempotent, atomic).",
        discussion: """
            All FILEs are imported in one transaction: if anything fails (or the process is killed) \
            the store is left exactly as it was. Rows are upserted by (network, id); importing the same \
            file again reports every row unchanged. Every rejected or flagged row is kept in the import \
            log with its line number and a reason code (`oncue imports show ID`).

            Columns are found from their header names (name/libname, lat/latitude/y, lon/lng/longitude/ \
            longitud/x, address, city, state/province/stabr, zip/postcode, country, brand/chain, id/store \
            number/keys, FSCSKEY+FSCS_SEQ); a --mapping JSON file overrides, e.g.
              {"columns": {"latitude": "Y_COORD", "longitude": "X_COORD", "id": ["SYS", "SEQ"]}}

            A file starting with { [ or the RFC 8142 record separator is GeoJSON: a FeatureCollection, a \
            text sequence or one feature per line (osmium export -f geojsonseq). Properties are read by \
            OpenStreetMap keys (the OSM element @type/@id, else ref, as the id; name; brand; addr:*), then \
            by the CSV column names above (store_id, radius_m, ...); a mapping file's columns replace both. \
            The point is the geometry's; building outlines become a centre and a radius. \
            scripts/osm-extract.sh makes such a file from an OpenStreetMap extract (docs/importing.md). \
            A mapping file's network_patterns recognise chains by how their stores are named (K-Market \
            Kamppi): {"network_patterns": {"match": ["brand", "name"], "rules": [{"pattern": \
            "k-?\\\\s*market", "network": "K-Market"}], "unmatched": "reject"}}.

            Examples:
              oncue import costcos.csv --db stores.sqlite --network costco
              oncue import FastFoodRestaurants.csv --db stores.sqlite --network-column name \\
                --category fast-food
              oncue import PLS_FY19_Outlet_pud19i.csv --db stores.sqlite --network-column FSCSKEY \\
                  --network-name-column LIBNAME --network-name-where C_OUT_TY=CE --category library
              oncue import target.csv --db stores.sqlite --network target --replace-network --dry-run --json
              oncue import helsinki-places.geojsonseq --db stores.sqlite
              oncue import shops.csv --db stores.sqlite --network-column brand \\
                --geocoder http://127.0.0.1:8088 --geocode coarse

            --network with --network-column: rows whose network column is empty go to --network; the others go to the network their column names. (--network alone puts every row in one network, whatever the header holds.)

            Coordinates are plain decimal numbers (-74.0060, 4.07e1; no hexadecimal, inf or nan). Those with two decimals or fewer (0.5 to 1 km off), or on a three-decimal grid most of the file shares, are flagged coarse_coordinates; when many rows are, the summary says so and what to do. A header where two columns could be the latitude (lat and latitude, or lat twice), or the longitude, is refused until a mapping file names one: {"columns": {"latitude": "latitude"}}, or {"columns": {"latitude": "#7"}} for the 7th column.

            Each row is checked as a whole first. A line longer than --max-line-bytes is skipped without being read into memory (line_too_long; a header that long refuses the file). A row with more fields than the header is rejected (field_count): a value with an unquoted delimiter, such as the decimal comma of 40,1, shifted the columns after it. A shorter row is kept with its last columns empty and a field_count warning, unless a coordinate column is among the missing ones (then it is rejected). A NUL byte in a column the import reads rejects the row (nul_byte). A value longer than the store keeps rejects it (field_too_long): id, name, network value and network name 200 characters, address 500, city, state, zip and country 100, a new network's id 100. Bytes that are not UTF-8 in a UTF-8 file become U+FFFD and the row is warned (invalid_utf8); --strict-utf8 refuses the file at the first such line instead.

            Reason codes (rejections and warnings in the summary, the import log and --json): \(ReasonCode.allCases.map(\.rawValue).joined(separator: ", ")).

            Geocoding: with --geocoder (or ONCUE_GEOCODER), rows without coordinates (--geocode missing, the \
            default), also coarse ones (coarse) or every row (all) are placed by a Nominatim-compatible /search \
            from the address, city, state, postcode and country columns. Before the import, the addresses the \
            store's cache cannot answer are counted and the time they take at --geocoder-rps is printed; --dry-run \
            stops there and asks nothing. Each answer is cached in the store as it arrives, so an interrupted run \
            loses nothing fetched and a re-import asks nothing again. Rows the geocoder cannot place are rejected \
            (geocode_not_found, geocode_ambiguous, geocode_wrong_country, geocode_failed) unless they have \
            coordinates of their own; --require-geocode imports nothing when the service failed for some row.
            """
    )

    @Argument(help: "CSV files to import (UTF-8, Windows-1252 or Latin-1; `,` `;` tab or `|` separated).")
    var files: [String]
    @OptionGroup var store: StoreOptions
    // Each import option's flag, from its entry in ImportOptionTable, which parses the text as it parses a request's.
    @OptionGroup var flags: DeclaredFlags<ImportFlags>
    @OptionGroup(title: ImportOptionTable.geocodingSection) var geocoding: DeclaredFlags<GeocodingFlags>
    @Option(help: "Progress on standard error: auto (terminal only), always, never.") var progress: ProgressMode = .auto
    @OptionGroup var output: OutputOptions

    func validate() throws { _ = try values() }

    /// The options given, as `ImportOptionTable` reads them (a refusal names the flag: a usage error). A mapping is a
    /// file, read by `run`, not a text.
    func values() throws -> ImportOptionValues {
        let given = (flags.given + geocoding.given).filter { $0.declaration != ImportOptionTable.mapping.declaration }
        do { return try ImportOptionTable.values(given.map { ($0.declaration.name, $0.text) }, from: .commandLine) } catch { throw error.usageError }
    }

    func run() async throws {
        let values = try values()
        var options = values.options
        if let mapping = flags[ImportOptionTable.mapping] { options.mapping = try MappingFile.load(path: mapping) }
        options.geocoding = try geocoding.options(values.geocoding)
        let inputs = try files.map { try ImportInput.file($0) }
        let progressLine = ProgressLine(output: .standardError)
        let report: ImportReport
        do {
            // Gone before the summary, whatever the import's end.
            defer { progressLine.clear() }
            report = try await store.withStore { store in
                let importer = try ChainImporter(for: store, options: options)
                progressLine.attach(to: importer, mode: progress)
                return try await CommandAudit.recordedImport(importer, of: inputs, into: store, files: files)
            }
        }
        print(output.isJSON ? try jsonString(report) : ImportSummary.text(report), terminator: output.isJSON ? "\n" : "")
    }
}

/// The flags of `oncue import` but for geocoding's: one for each import option the command line takes.
enum ImportFlags: FlagTable {
    static var options: [any DeclaredOption] { ImportOptionTable.all.filter { $0.declaration.section == nil } }
}
