import Foundation

/// Every option of an import, declared once (as `ServerSettings` is for the server). `oncue import` declares a flag
/// for each that the command line takes, `POST /admin/imports` reads each that a request takes as a query parameter,
/// tests hold `openapi.yaml` and docs/importing.md to it, and both surfaces parse through `values(_:from:)`. Code names
/// an option by its member, so a misspelled one does not compile.
package enum ImportOptionTable {
    package static let defaultGeocoderRequestsPerSecond = 1.0
    package static let defaultGeocoderTimeoutSeconds = 10.0
    /// The help section of the geocoding options.
    package static let geocodingSection = "Geocoding"
    /// The variable that names the command line's geocoder when `--geocoder` does not.
    package static let geocoderVariable = "ONCUE_GEOCODER"

    package static let network = ImportOptionSpec(
        "network", .text,
        "Network (id, alias or new name) of every row; with a network column, of the rows whose column is empty"
    ) { $0.options.network = $1.text }

    package static let networkColumn = ImportOptionSpec("network_column", .text, "Column naming each row's network (a brand column, IMLS FSCSKEY)") {
        $0.options.networkColumn = $1.text
    }

    package static let networkNameColumn = ImportOptionSpec(
        "network_name_column", .text, "Column giving the display name of networks this import creates (LIBNAME)"
    ) {
        $0.options.networkNameColumn = $1.text
    }

    package static let networkNameWhere = ImportOptionSpec(
        "network_name_where", .text,
        "COLUMN=VALUE: only rows matching it name the networks this import creates (IMLS: C_OUT_TY=CE); needs a network name column"
    ) { $0.options.networkNameWhere = $1.text.flatMap(ImportOptionTable.condition) }

    package static let category = ImportOptionSpec("category", .text, "Category of networks this import creates (grocery, library, fast-food, ...)") {
        $0.options.category = $1.text
    }

    package static let onlyKnownNetworks = ImportOptionSpec(
        "only_known_networks", .flag(default: false),
        "Reject rows whose network is neither a known network nor an alias instead of creating one"
    ) { $0.options.onlyKnownNetworks = $1.flag }

    package static let brandCatalogue = ImportOptionSpec(
        "brand_catalogue", .flag(default: true),
        "Resolve brand spellings the store does not know, and brand_wikidata, through the brand catalogue (name-suggestion-index)"
    ) { $0.options.usesBrandCatalogue = $1.flag }

    package static let brandLanguage = ImportOptionSpec(
        "brand_language", .text,
        "Language (ISO 639-1: en, ja, ...) of the display names of brand networks this import creates; ids are ASCII whatever it is (default en)"
    ) { $0.options.brandLanguage = $1.text?.lowercased() ?? "en" }

    package static let mapping = ImportOptionSpec(
        "mapping", .text,
        "JSON mapping file overriding the guessed columns (on the command line its path; in a request the body's 'mapping' part)",
        surface: .fileOrBodyPart
    ) { _, _ in }

    package static let radiusColumn = ImportOptionSpec(
        "radius_column", .text, "Column with each location's own region radius in metres (found by name otherwise: radius_m, ...)"
    ) { values, value in value.text.map { values.options.mapColumn(.radius, to: $0) } }

    package static let venueRadiusColumn = ImportOptionSpec(
        "venue_radius_column", .text,
        "Column with each venue's size as a radius in metres: the location is a large venue (theme park, airport)"
    ) { values, value in value.text.map { values.options.mapColumn(.venueRadius, to: $0) } }

    package static let dryRun = ImportOptionSpec("dry_run", .flag(default: false), "Validate and report, then roll back: the store is not changed") {
        $0.options.dryRun = $1.flag
    }

    package static let replaceNetwork = ImportOptionSpec(
        "replace_network", .flag(default: false), "Remove locations of the imported networks that the files no longer list",
        deprecatedNames: ["replace"]
    ) { $0.options.replaceNetwork = $1.flag }

    package static let fixCoordinates = ImportOptionSpec(
        "fix_coordinates", .flag(default: false),
        "Correct sign-flipped and swapped coordinates (as warnings) instead of rejecting those rows"
    ) { $0.options.fixCoordinates = $1.flag }

    package static let encoding = ImportOptionSpec(
        "encoding", .choice(["utf-8", "windows-1252", "latin-1"]), "Force the encoding (default: detected)"
    ) {
        $0.options.encoding = $1.text.flatMap(TextEncoding.init(name:))
    }

    package static let delimiter = ImportOptionSpec(
        "delimiter", .choice([",", ";", "|", "tab"]), "Force the delimiter (default: detected from the header)"
    ) {
        $0.options.delimiter = $1.text.map { $0 == "tab" ? 0x09 : $0.utf8.first ?? UInt8(ascii: ",") }
    }

    package static let maxLineBytes = ImportOptionSpec(
        "max_line_bytes", .integer(ImportOptions.maxLineBytesRange, default: ImportOptions.defaultMaxLineBytes),
        "Longest line read, in bytes: longer data lines are rejected unread (line_too_long), a longer header refuses the file"
    ) { $0.options.maxLineBytes = $1.integer ?? ImportOptions.defaultMaxLineBytes }

    package static let strictUTF8 = ImportOptionSpec(
        "strict_utf8", .flag(default: false),
        "Refuse the file at the first value that is not UTF-8 (default: replace the bytes with U+FFFD and warn the row)"
    ) { $0.options.strictUTF8 = $1.flag }

    package static let geocoder = ImportOptionSpec(
        "geocoder", .text,
        "The geocoder: on the command line a Nominatim-compatible base URL (default $\(geocoderVariable)); in a request the name of one of the server's geocoders (--geocoder NAME=URL), never a URL",
        section: geocodingSection, variable: geocoderVariable
    ) { $0.geocoding.geocoder = $1.text }

    package static let geocode = ImportOptionSpec(
        "geocode", .choice(GeocodeMode.allCases.map(\.rawValue)),
        "Rows to geocode: missing (no coordinates, the default), coarse (also coordinates too coarse for a geofence), all",
        section: geocodingSection
    ) { $0.geocoding.mode = $1.text.flatMap(GeocodeMode.init(rawValue:)) }

    package static let geocoderRPS = ImportOptionSpec(
        "geocoder_rps", .positive(upTo: 1_000, default: defaultGeocoderRequestsPerSecond),
        "At most this many geocoder requests per second (the public Nominatim allows 1; a request may lower the server's rate, not raise it)",
        section: geocodingSection
    ) { $0.geocoding.requestsPerSecond = $1.number }

    package static let geocoderTimeout = ImportOptionSpec(
        "geocoder_timeout", .positive(upTo: 600, default: defaultGeocoderTimeoutSeconds), "Seconds to wait for one geocoder answer",
        section: geocodingSection
    ) { $0.geocoding.timeoutSeconds = $1.number }

    package static let requireGeocode = ImportOptionSpec(
        "require_geocode", .flag(default: false),
        "Import nothing when the geocoder could not answer for some row (default: import the rows it could place)",
        section: geocodingSection
    ) { $0.geocoding.requireGeocode = $1.flag }

    package static let geocodeNames = ImportOptionSpec(
        "geocode_names", .flag(default: true),
        "Search a row's own name at its address first, finding the shop itself rather than its building's address point",
        section: geocodingSection
    ) { $0.geocoding.searchByName = $1.flag }

    package static let fileName = ImportOptionSpec(
        "file_name", .text,
        "The name recorded in the import log (default: the Content-Disposition header's filename, else a made-up upload-*.csv)",
        surface: .requestOnly(because: "the command line logs each file by its own name")
    ) { $0.fileName = $1.text }

    /// Every option, in the order of help and docs.
    package static let all: [ImportOptionSpec] = [
        network, networkColumn, networkNameColumn, networkNameWhere, category, onlyKnownNetworks, brandCatalogue, brandLanguage, mapping,
        radiusColumn, venueRadiusColumn, dryRun, replaceNetwork, fixCoordinates, encoding, delimiter, maxLineBytes, strictUTF8,
        geocoder, geocode, geocoderRPS, geocoderTimeout, requireGeocode, geocodeNames, fileName,
    ]
}
