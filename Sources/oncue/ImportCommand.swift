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
            OpenStreetMap keys (the OSM element @type/@id, else ref, as the id; name; brand; addr:*), which \
            a mapping file's columns replace; building outlines become a centre and a radius. \
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

            Coordinates are plain decimal numbers (-74.0060, 4.07e1; no hexadecimal, inf or nan). Those with two decimals or fewer (±0.5–1 km), or on a three-decimal grid most of the file shares, are flagged coarse_coordinates; when many rows are, the summary says so and what to do. A header where two columns could be the latitude (lat and latitude, or lat twice), or the longitude, is refused until a mapping file names one: {"columns": {"latitude": "latitude"}}, or {"columns": {"latitude": "#7"}} for the 7th column.

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
    @Option(help: "Network (id, alias or new name) of every row; with --network-column, of the rows whose column is empty.")
    var network: String?
    @Option(help: "Column naming each row's network (brand column, IMLS FSCSKEY).") var networkColumn: String?
    @Option(help: "Column giving the display name of networks this import creates (e.g. LIBNAME).") var networkNameColumn: String?
    @Option(help: "COLUMN=VALUE: only rows matching it name the networks this import creates (IMLS: C_OUT_TY=CE).")
    var networkNameWhere: String?
    @Option(help: "Category of networks this import creates (grocery, library, fast-food, …).") var category: String?
    @Flag(help: "Reject rows whose network is neither a known network nor an alias instead of creating one.")
    var onlyKnownNetworks = false
    @Flag(
        inversion: .prefixedNo,
        help: "Resolve brand spellings the store does not know, and brand_wikidata, through the brand catalogue (name-suggestion-index).")
    var brandCatalogue = true
    @Option(help: "JSON mapping file overriding the guessed columns.") var mapping: String?
    @Option(help: "Column with each location's own region radius in metres (found by name otherwise: radius_m, …).")
    var radiusColumn: String?
    @Option(help: "Column with each venue's size as a radius in metres: the location is a large venue (theme park, airport).")
    var venueRadiusColumn: String?
    @Flag(help: "Validate and report, then roll back: the store is not changed.") var dryRun = false
    @Flag(help: "Remove locations of the imported networks that the files no longer list.") var replaceNetwork = false
    @Flag(help: "Correct sign-flipped and swapped coordinates (as warnings) instead of rejecting those rows.")
    var fixCoordinates = false
    @Option(help: "Force the encoding (default: detected).") var encoding: TextEncoding?
    @Option(help: "Force the delimiter (default: detected from the header).") var delimiter: Delimiter?
    @Option(help: "Longest line read, in bytes: longer data lines are rejected unread (line_too_long), a longer header refuses the file.")
    var maxLineBytes = ImportOptions.defaultMaxLineBytes
    @Flag(
        name: .customLong("strict-utf8"),
        help: "Refuse the file at the first value that is not UTF-8 (default: replace the bytes with U+FFFD and warn the row).")
    var strictUTF8 = false
    @OptionGroup(title: "Geocoding") var geocoding: GeocoderArguments
    @Option(help: "Progress on standard error: auto (terminal only), always, never.") var progress: ProgressMode = .auto
    @OptionGroup var output: OutputOptions

    enum ProgressMode: String, ExpressibleByArgument, CaseIterable { case auto, always, never }

    func validate() throws {
        if let networkNameWhere, Self.condition(networkNameWhere) == nil {
            throw ValidationError("--network-name-where takes COLUMN=VALUE, got '\(networkNameWhere)'")
        }
        if networkNameWhere != nil && networkNameColumn == nil { throw ValidationError("--network-name-where needs --network-name-column") }
        if !ImportOptions.maxLineBytesRange.contains(maxLineBytes) {
            throw ValidationError(
                "--max-line-bytes must be in \(ImportOptions.maxLineBytesRange.lowerBound)..."
                    + "\(ImportOptions.maxLineBytesRange.upperBound), got \(maxLineBytes)")
        }
    }

    static func condition(_ text: String) -> (column: String, value: String)? {
        guard let eq = text.firstIndex(of: "="), eq != text.startIndex else { return nil }
        return (String(text[..<eq]), String(text[text.index(after: eq)...]))
    }

    func run() async throws {
        var options = ImportOptions(
            network: network, networkColumn: networkColumn, networkNameColumn: networkNameColumn,
            category: category, onlyKnownNetworks: onlyKnownNetworks, dryRun: dryRun,
            replaceNetwork: replaceNetwork, fixCoordinates: fixCoordinates,
            encoding: encoding, delimiter: delimiter?.byte)
        options.networkNameWhere = networkNameWhere.flatMap(Self.condition)
        options.usesBrandCatalogue = brandCatalogue
        options.maxLineBytes = maxLineBytes
        options.strictUTF8 = strictUTF8
        if let mapping { options.mapping = try MappingFile.load(path: mapping) }
        if let radiusColumn { options.mapColumn(.radius, to: radiusColumn) }
        if let venueRadiusColumn { options.mapColumn(.venueRadius, to: venueRadiusColumn) }
        options.geocoding = try geocoding.options()
        let inputs = try files.map { try ImportInput.file($0) }
        let stderr = FileHandleOutput.standardError
        let renderer = ProgressLine(output: stderr)
        let showProgress = progress == .always || (progress == .auto && stderr.isTerminal)
        let report: ImportReport
        do {
            report = try await store.withStore { store in
                let importer = try ChainImporter(for: store, options: options)
                if showProgress { importer.progress = { renderer.show($0) } }
                if progress != .never { importer.notice = { stderr.write("\($0.forMessage(limit: 500))\n") } }
                return try await importer.run(inputs)
            }
        } catch {
            renderer.clear()
            throw error
        }
        renderer.clear()
        print(output.isJSON ? try jsonString(report) : ImportSummary.text(report), terminator: output.isJSON ? "\n" : "")
    }
}
