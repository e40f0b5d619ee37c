import Foundation
import Geo

/// One data row as the parser hands it to the writing side: its mapped fields decoded and trimmed,
/// its coordinates checked. Fields the importer would not read for a rejected row are left nil.
package struct ParsedRow: Sendable {
    package var line: Int
    /// Why the row is rejected before its coordinates matter (too long, wrong field count, a NUL, a field too long).
    var rejection: RowIssue?
    /// What the parser found wrong but kept (a short row, bytes that are not UTF-8).
    var warnings: [RowIssue] = []
    var verdict: CoordinateVerdict
    /// Accepted with no US state or country to hold the point against: `PlacementCheck` judges it.
    var unreferenced = false
    var region: String?
    var country: String?
    var id: String?
    package var network: String?
    var networkName: String?
    /// The brand's Wikidata id, when the file gives one.
    var brandWikidata: String?
    var openingHours: String?
    /// Whether the row matches `--network-name-where` (its network name then renames the network).
    var namesNetwork = false
    var address: String?
    package var name: String?
    var city: String?
    var postalCode: String?
    /// `radius_m` and `venue_radius_m` as the file wrote them (checked when the location is made).
    var radius: String?
    var venueRadius: String?
    /// The ZIP as the file had it, when it lost its leading zeros and `postalCode` holds the restored one.
    var zipBeforeRestoring: String?
    /// The id derived from name, address and coordinates, for a row without an id but with a name of its own.
    var derivedId: String?
    /// Decimals of the coarser coordinate (`CoordinatePrecision.decimals`), for rows with coordinates.
    var decimals: Int?
    /// Decimals of the coarser coordinate as the text writes it (`CoordinatePrecision.rowDecimals`): what the row
    /// alone is judged by.
    var writtenDecimals: Int?
    /// Set when the coordinates are too coarse for a geofence (decided once the file's grid is known).
    package var coarse: CoarseCoordinates?
    /// The row's address as a geocoder takes it; read only when the import geocodes.
    var addressQuery: AddressQuery?

    /// A row rejected by the parser, with none of its fields kept.
    static func rejected(line: Int, _ issue: RowIssue) -> ParsedRow {
        ParsedRow(line: line, rejection: issue, verdict: .rejected(issue.code, issue.message))
    }

    /// The row's text for a column role (nil for the coordinates, which are kept as numbers).
    func value(_ role: FieldRole) -> String? {
        switch role {
        case .id: id
        case .name: name
        case .address: address
        case .city: city
        case .region: region
        case .postalCode: postalCode
        case .country: country
        case .network: network
        case .networkName: networkName
        case .radius: radius
        case .venueRadius: venueRadius
        case .brandWikidata: brandWikidata
        case .openingHours: openingHours
        case .latitude, .longitude: nil
        }
    }

    /// Whether the file gave usable coordinates (else only a geocoder can place the row).
    var hasFileCoordinates: Bool {
        guard rejection == nil, case .accepted = verdict else { return false }
        return true
    }

    /// Whether `mode` sends this row to the geocoder: rows without coordinates always, coarse rows from `coarse` on,
    /// every row with `all`; never a row whose coordinates were rejected for another reason, nor one without an address.
    func wantsGeocode(_ mode: GeocodeMode) -> Bool {
        guard rejection == nil, let query = addressQuery, !query.isEmpty else { return false }
        switch verdict {
        case .rejected(let code, _): return code == .missingCoordinates
        case .accepted: return mode == .all || (mode == .coarse && coarse != nil)
        }
    }
}

/// A reason and its message, for a row the parser rejects or warns about.
struct RowIssue: Sendable, Equatable {
    var code: ReasonCode
    var message: String

    init(_ code: ReasonCode, _ message: String) {
        self.code = code
        self.message = message
    }
}

/// What the parser reports, in file order.
package enum ParseEvent: Sendable {
    /// The header line, read before any row.
    case header(headers: [String], mapping: ColumnMapping)
    /// Rows, and how many bytes of the file have been read so far.
    case rows([ParsedRow], bytesRead: Int64)
    /// The end of the file.
    case finished(ParsedFile)
}

/// What the whole file turned out to be, for its report.
package struct ParsedFile: Sendable {
    package var bytesRead: Int64
    package var sha256: String
    package var encoding: String
    var mixedEncoding: Bool
    var hadByteOrderMark: Bool
    var delimiter: String
    /// The grid most of the file's first rows sit on, when it is coarse (`CoordinatePrecision.fileGrid`).
    var fileGridDecimals: Int?
    /// `csv`, `geojson` (a FeatureCollection or one Feature) or `geojsonseq` (RFC 8142, or one feature per line).
    var format: String
    /// The licence the data asks to be credited under, when the file says whose it is (OpenStreetMap elements).
    var attribution: String?
}
