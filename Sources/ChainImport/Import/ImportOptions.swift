import LocationStore

/// How to import: where rows' networks come from, how columns map, and what to do with the store.
public struct ImportOptions: Sendable {
    /// Every row belongs to this network (an id, an alias, or a new name); with `networkColumn`, the rows whose column
    /// is empty do.
    public var network: String?
    /// The column whose value names each row's network (a brand column, IMLS `FSCSKEY`).
    package var networkColumn: String?
    /// Where networks created by this import take their display name from (default: the network value).
    package var networkNameColumn: String?
    /// Only rows whose `column` equals `value` name the networks this import creates (IMLS:
    /// `C_OUT_TY` = `CE`, the central library, rather than whichever branch comes first).
    package var networkNameWhere: (column: String, value: String)?
    /// Category given to networks this import creates (`library`, `fast-food`, …).
    package var category: String?
    /// Reject rows whose network is neither a known id nor an alias, instead of creating networks.
    package var onlyKnownNetworks = false
    /// Resolve network values the store does not know, and `brand_wikidata`, through the brand catalogue (the
    /// name-suggestion-index's brands), so a chain's spellings become one network named as the brand writes itself.
    package var usesBrandCatalogue = true
    /// The language of the display names of brand networks this import creates (ISO 639-1: "ja" names Starbucks
    /// "スターバックス"); their ids are ASCII whatever it is. English, the default, takes the catalogue's English or
    /// Latin-script name.
    package var brandLanguage = "en"
    package var mapping: MappingFile?
    /// Run everything, report, and roll back.
    package var dryRun = false
    /// Remove the locations of every network the import touched that the import does not list.
    package var replaceNetwork = false
    /// Correct sign-flipped and swapped coordinates (flagged as warnings) instead of rejecting the rows.
    public var fixCoordinates = false
    /// Force an encoding instead of detecting UTF-8 vs Windows-1252/Latin-1.
    public var encoding: TextEncoding?
    /// Force a delimiter instead of detecting `,` `;` tab `|` from the header line.
    public var delimiter: UInt8?
    /// The longest line (record) read, in bytes: a longer data line is rejected (`line_too_long`) without being held
    /// in memory, a longer header fails the file. Memory per row stays bounded by it.
    public var maxLineBytes = ImportOptions.defaultMaxLineBytes
    /// Fail the file at the first field that is not UTF-8, naming its line, instead of replacing the bad bytes with
    /// U+FFFD and warning the row (`invalid_utf8`).
    public var strictUTF8 = false
    /// Rows of the same network closer than this (metres) are flagged as near duplicates.
    package var duplicateRadiusMeters = 10.0
    /// How many issues per file the report carries.
    package var reportIssueLimit = 100
    /// How many issues of one reason per file go to the import log (the counts by reason stay exact): a file whose
    /// every row has the same problem grows the log by this much, not by its row count.
    package var logIssueLimitPerReason = 10_000
    /// Seconds between progress callbacks.
    package var progressInterval = 0.25
    /// Send rows without usable coordinates to a Nominatim-compatible geocoder (nil: such rows are rejected).
    package var geocoding: GeocodingOptions?

    package init(
        network: String? = nil, networkColumn: String? = nil, networkNameColumn: String? = nil, category: String? = nil,
        onlyKnownNetworks: Bool = false, mapping: MappingFile? = nil, dryRun: Bool = false, replaceNetwork: Bool = false,
        fixCoordinates: Bool = false, encoding: TextEncoding? = nil, delimiter: UInt8? = nil
    ) {
        self.network = network
        self.networkColumn = networkColumn
        self.networkNameColumn = networkNameColumn
        self.category = category
        self.onlyKnownNetworks = onlyKnownNetworks
        self.mapping = mapping
        self.dryRun = dryRun
        self.replaceNetwork = replaceNetwork
        self.fixCoordinates = fixCoordinates
        self.encoding = encoding
        self.delimiter = delimiter
    }

    /// A network column was named (`networkColumn`, or a mapping file's `network` column): rows name their network, and
    /// a fixed network (`network`) is only the fallback for rows whose column is empty.
    package var namesNetworkColumn: Bool {
        if networkColumn != nil { return true }
        if case .columns? = mapping?.columns[FieldRole.network.rawValue] { return true }
        return false
    }

    /// Whether rows are read for their network: a column was named, or no network is fixed (a column the header has
    /// is used then). A fixed network without a named column goes to every row, whatever the header holds.
    var readsNetworkColumn: Bool { namesNetworkColumn || (network == nil && mapping?.network == nil) }

    public static let defaultMaxLineBytes = 1 << 20
    /// The range `maxLineBytes` may take: a real chain row is a few hundred bytes.
    package static let maxLineBytesRange = 256...(1 << 30)

    /// Refuses options that contradict each other or exceed what the store keeps.
    package func validate() throws(ImportError) {
        guard Self.maxLineBytesRange.contains(maxLineBytes) else {
            throw .invalidOption(
                "--max-line-bytes must be in \(Self.maxLineBytesRange.lowerBound)...\(Self.maxLineBytesRange.upperBound), got \(maxLineBytes)")
        }
        let encoding = self.encoding ?? mapping?.encoding.flatMap(TextEncoding.init(name:))
        if strictUTF8, let encoding, encoding != .utf8 {
            throw .invalidOption("--strict-utf8 reads the file as UTF-8; it cannot be combined with the encoding \(encoding.rawValue)")
        }
        if let category, FieldLimits.exceeds(category, FieldLimits.category) {
            throw .invalidOption("the category '\(category.clipped(40))' is longer than \(FieldLimits.category) characters")
        }
        for (what, value) in [("network", network), ("network", mapping?.network)] {
            if let value, FieldLimits.exceeds(value, min(FieldLimits.alias, FieldLimits.networkName)) {
                throw .invalidOption(
                    "the \(what) '\(value.clipped(40))' is longer than \(min(FieldLimits.alias, FieldLimits.networkName)) characters")
            }
        }
    }

    /// The options as recorded in the import log, each under its name in `ImportOptionTable` (a request's parameter).
    package var logged: [String: String] {
        typealias T = ImportOptionTable
        var out: [String: String] = [:]
        if let network { out[T.network.name] = network }
        if let networkColumn { out[T.networkColumn.name] = networkColumn }
        if let networkNameColumn { out[T.networkNameColumn.name] = networkNameColumn }
        if let w = networkNameWhere { out[T.networkNameWhere.name] = "\(w.column)=\(w.value)" }
        if let category { out[T.category.name] = category }
        if onlyKnownNetworks { out[T.onlyKnownNetworks.name] = "true" }
        if !usesBrandCatalogue { out[T.brandCatalogue.name] = "false" }
        if brandLanguage != "en" { out[T.brandLanguage.name] = brandLanguage }
        if dryRun { out[T.dryRun.name] = "true" }
        if replaceNetwork { out[T.replaceNetwork.name] = "true" }
        if fixCoordinates { out[T.fixCoordinates.name] = "true" }
        if let encoding { out[T.encoding.name] = encoding.rawValue }
        if maxLineBytes != Self.defaultMaxLineBytes { out[T.maxLineBytes.name] = String(maxLineBytes) }
        if strictUTF8 { out[T.strictUTF8.name] = "true" }
        if mapping != nil { out[T.mapping.name] = "file" }
        if let geocoding {
            out[T.geocoder.name] = geocoding.settings.displayURL
            out[T.geocode.name] = geocoding.mode.rawValue
            if geocoding.requireGeocode { out[T.requireGeocode.name] = "true" }
        }
        return out
    }
}

extension ImportOptions {
    /// Reads `role` from `column`, as a mapping file's `"columns": {role: column}` would (`--radius-column` and the like).
    package mutating func mapColumn(_ role: FieldRole, to column: String) {
        var file = mapping ?? MappingFile()
        file.columns[role.rawValue] = .columns([column])
        mapping = file
    }
}
