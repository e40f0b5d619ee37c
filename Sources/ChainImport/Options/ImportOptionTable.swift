import Foundation

/// Every option of an import, declared once (as `ServerSettings` is for the server). `oncue import` declares a flag
/// for each that the command line takes, `POST /admin/imports` reads each that a request takes as a query parameter,
/// tests hold `openapi.yaml` and docs/importing.md to it, and both surfaces parse through `values(_:surface:)`.
package enum ImportOptionTable {
    package static let defaultGeocoderRequestsPerSecond = 1.0
    package static let defaultGeocoderTimeoutSeconds = 10.0

    package static let all: [ImportOptionSpec] = [
        ImportOptionSpec(
            "network", .text,
            "Network (id, alias or new name) of every row; with a network column, of the rows whose column is empty"
        ) { $0.options.network = $1.text },
        ImportOptionSpec("network_column", .text, "Column naming each row's network (a brand column, IMLS FSCSKEY)") {
            $0.options.networkColumn = $1.text
        },
        ImportOptionSpec("network_name_column", .text, "Column giving the display name of networks this import creates (LIBNAME)") {
            $0.options.networkNameColumn = $1.text
        },
        ImportOptionSpec(
            "network_name_where", .text,
            "COLUMN=VALUE: only rows matching it name the networks this import creates (IMLS: C_OUT_TY=CE); needs a network name column"
        ) { $0.options.networkNameWhere = $1.text.flatMap(ImportOptionTable.condition) },
        ImportOptionSpec("category", .text, "Category of networks this import creates (grocery, library, fast-food, ...)") {
            $0.options.category = $1.text
        },
        ImportOptionSpec(
            "only_known_networks", .flag(default: false),
            "Reject rows whose network is neither a known network nor an alias instead of creating one"
        ) { $0.options.onlyKnownNetworks = $1.flag },
        ImportOptionSpec(
            "brand_catalogue", .flag(default: true),
            "Resolve brand spellings the store does not know, and brand_wikidata, through the brand catalogue (name-suggestion-index)"
        ) { $0.options.usesBrandCatalogue = $1.flag },
        ImportOptionSpec(
            "brand_language", .text,
            "Language (ISO 639-1: en, ja, ...) of the display names of brand networks this import creates; ids are ASCII whatever it is (default en)"
        ) { $0.options.brandLanguage = $1.text?.lowercased() ?? "en" },
        ImportOptionSpec(
            "mapping", .text,
            "JSON mapping file overriding the guessed columns (on the command line its path; in a request the body's 'mapping' part)",
            surface: .fileOrBodyPart
        ) { _, _ in },
        ImportOptionSpec(
            "radius_column", .text, "Column with each location's own region radius in metres (found by name otherwise: radius_m, ...)"
        ) { values, value in value.text.map { values.options.mapColumn(.radius, to: $0) } },
        ImportOptionSpec(
            "venue_radius_column", .text,
            "Column with each venue's size as a radius in metres: the location is a large venue (theme park, airport)"
        ) { values, value in value.text.map { values.options.mapColumn(.venueRadius, to: $0) } },
        ImportOptionSpec("dry_run", .flag(default: false), "Validate and report, then roll back: the store is not changed") {
            $0.options.dryRun = $1.flag
        },
        ImportOptionSpec(
            "replace_network", .flag(default: false), "Remove locations of the imported networks that the files no longer list",
            deprecatedNames: ["replace"]
        ) { $0.options.replaceNetwork = $1.flag },
        ImportOptionSpec(
            "fix_coordinates", .flag(default: false),
            "Correct sign-flipped and swapped coordinates (as warnings) instead of rejecting those rows"
        ) { $0.options.fixCoordinates = $1.flag },
        ImportOptionSpec("encoding", .choice(["utf-8", "windows-1252", "latin-1"]), "Force the encoding (default: detected)") {
            $0.options.encoding = $1.text.flatMap(TextEncoding.init(name:))
        },
        ImportOptionSpec("delimiter", .choice([",", ";", "|", "tab"]), "Force the delimiter (default: detected from the header)") {
            $0.options.delimiter = $1.text.map { $0 == "tab" ? 0x09 : $0.utf8.first ?? UInt8(ascii: ",") }
        },
        ImportOptionSpec(
            "max_line_bytes", .integer(ImportOptions.maxLineBytesRange, default: ImportOptions.defaultMaxLineBytes),
            "Longest line read, in bytes: longer data lines are rejected unread (line_too_long), a longer header refuses the file"
        ) { $0.options.maxLineBytes = $1.integer ?? ImportOptions.defaultMaxLineBytes },
        ImportOptionSpec(
            "strict_utf8", .flag(default: false),
            "Refuse the file at the first value that is not UTF-8 (default: replace the bytes with U+FFFD and warn the row)"
        ) { $0.options.strictUTF8 = $1.flag },
        ImportOptionSpec(
            "geocoder", .text,
            "The geocoder: on the command line a Nominatim-compatible base URL (default $ONCUE_GEOCODER); in a request the name of one of the server's geocoders (--geocoder NAME=URL), never a URL"
        ) { $0.geocoding.geocoder = $1.text },
        ImportOptionSpec(
            "geocode", .choice(GeocodeMode.allCases.map(\.rawValue)),
            "Rows to geocode: missing (no coordinates, the default), coarse (also coordinates too coarse for a geofence), all"
        ) { $0.geocoding.mode = $1.text.flatMap(GeocodeMode.init(rawValue:)) },
        ImportOptionSpec(
            "geocoder_rps", .positive(upTo: 1_000, default: defaultGeocoderRequestsPerSecond),
            "At most this many geocoder requests per second (the public Nominatim allows 1; a request may lower the server's rate, not raise it)"
        ) { $0.geocoding.requestsPerSecond = $1.number },
        ImportOptionSpec(
            "geocoder_timeout", .positive(upTo: 600, default: defaultGeocoderTimeoutSeconds), "Seconds to wait for one geocoder answer"
        ) { $0.geocoding.timeoutSeconds = $1.number },
        ImportOptionSpec(
            "require_geocode", .flag(default: false),
            "Import nothing when the geocoder could not answer for some row (default: import the rows it could place)"
        ) { $0.geocoding.requireGeocode = $1.flag },
        ImportOptionSpec(
            "geocode_names", .flag(default: true),
            "Search a row's own name at its address first, finding the shop itself rather than its building's address point"
        ) { $0.geocoding.searchByName = $1.flag },
        ImportOptionSpec(
            "file_name", .text,
            "The name recorded in the import log (default: the Content-Disposition header's filename, else a made-up upload-*.csv)",
            surface: .requestOnly(because: "the command line logs each file by its own name")
        ) { $0.fileName = $1.text },
    ]

    /// The option named `name`, or whose deprecated name it is.
    package static func option(named name: some StringProtocol) -> ImportOptionSpec? {
        all.first { $0.name == name || $0.deprecatedNames.contains(String(name)) }
    }

    /// The option named `name` in the table; a name that is not in it is a programming error.
    package static subscript(_ name: String) -> ImportOptionSpec {
        guard let option = all.first(where: { $0.name == name }) else { preconditionFailure("no import option '\(name)'") }
        return option
    }

    /// Where the options come from: a surface takes the options its `Surface` allows.
    package enum Source: Sendable { case commandLine, request }

    /// The options `given` (name or deprecated name, and text) say, each parsed by its kind, in the order given.
    /// Refused: a name that is no option of `source`, a name given twice (or with its deprecated name), a text its kind
    /// does not accept, and options that need another (`network_name_where` without `network_name_column`).
    package static func values(
        _ given: [(name: String, text: String)], from source: Source
    ) throws(ImportOptionSpec.Refusal)
        -> ImportOptionValues
    {
        var values = ImportOptionValues()
        var seen: [String: (name: String, value: ImportOptionSpec.ParsedValue)] = [:]
        for (name, text) in given {
            guard let option = option(named: name), option.isTaken(from: source) else {
                throw ImportOptionSpec.Refusal(option: String(name.prefix(64)), reason: "is not an option of an import")
            }
            let value = try option.parse(text)
            if let earlier = seen[option.name] {
                // The same name twice is a mistake; a deprecated name beside the new one may say the same (a client
                // moving over), and otherwise they contradict each other.
                guard earlier.name != name else { throw option.refusal("is given twice") }
                guard earlier.value == value else {
                    var refusal = option.refusal("and its earlier name '\(option.deprecatedNames.joined(separator: "', '"))' disagree")
                    refusal.needsAnother = true
                    throw refusal
                }
                continue
            }
            seen[option.name] = (name, value)
            if name != option.name { values.deprecatedNamesUsed.append(name) }
            option.write(&values, value)
        }
        if values.options.networkNameWhere == nil, let text = given.first(where: { option(named: $0.name)?.name == "network_name_where" })?.text {
            throw Self["network_name_where"].refusal("takes COLUMN=VALUE, got '\(text.prefix(40))'")
        }
        if values.options.networkNameWhere != nil, values.options.networkNameColumn == nil {
            var refusal = Self["network_name_where"].refusal("needs network_name_column")
            refusal.needsAnother = true
            throw refusal
        }
        return values
    }

    /// `COLUMN=VALUE`, the column not empty.
    static func condition(_ text: String) -> (column: String, value: String)? {
        guard let eq = text.firstIndex(of: "="), eq != text.startIndex else { return nil }
        return (String(text[..<eq]), String(text[text.index(after: eq)...]))
    }
}

extension ImportOptionSpec {
    /// Whether `source` takes this option as text by its name (a mapping is a file or a body part, never such a text).
    func isTaken(from source: ImportOptionTable.Source) -> Bool {
        switch (surface, source) {
        case (.both, _): true
        case (.requestOnly, .request): true
        case (.requestOnly, .commandLine), (.fileOrBodyPart, _): false
        }
    }
}

extension ImportOptionSpec.ParsedValue {
    var text: String? { if case .text(let text) = self { text } else { nil } }
    var flag: Bool { if case .flag(let on) = self { on } else { false } }
    var integer: Int? { if case .integer(let value) = self { value } else { nil } }
    var number: Double? { if case .number(let value) = self { value } else { nil } }
}
