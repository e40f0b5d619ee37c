import Foundation
import LocationStore

/// One location as an admin writes it by hand: the body of `POST /admin/locations` and `PUT`/`PATCH
/// /admin/locations/{id}`, and what `oncue locations add|set` build from their options. The names are the import's
/// columns (`FieldRole`), so a field means here what it means in a file; `LocationField` says how each is named on
/// the wire and where it sits here.
package struct LocationFields: Sendable, Equatable {
    /// The id within its network (the file's `id` column); derived from the address and point when left out, as an
    /// import derives it.
    package var id: String?
    /// A network id, alias or name the store knows (an edit never creates a network).
    package var network: String?
    package var name: String?
    package var address: String?
    package var city: String?
    package var region: String?
    package var postalCode: String?
    package var country: String?
    package var latitude: Double?
    package var longitude: Double?
    package var radiusMeters: Double?
    package var venueRadiusMeters: Double?
    package var openingHours: String?
    /// Fields the store sets, as a client read them (a GET's body PUT back): an edit that repeats them changes
    /// nothing, one that differs is refused (`LocationEditor`). The global id, `loc_<network>_<id>`.
    package var locationId: String?
    /// The import that last wrote the location.
    package var sourceImportId: Int64?

    package init() {}

    /// The fields of a stored location, for a patch to change some of them (not those the store sets: a patch that
    /// repeats them is checked against the location, one built from it needs no check).
    package init(_ location: Location) {
        for field in LocationField.all where !field.isReadOnly { self[field] = field.read(location) }
    }

    /// The fields the one-row CSV carries, in its column order.
    static let csvFields = LocationField.all.filter { $0.column != nil }

    /// The import's columns, in the order `csv` writes them.
    static let columns = csvFields.compactMap(\.column)

    /// A one-row CSV of these fields under the import's column names: the edit goes through exactly the checks, reason
    /// codes and change versions a file's row does.
    var csv: [UInt8] {
        let line = Self.csvFields.map { Self.quoted(self[$0]?.csvText ?? "") }.joined(separator: ",")
        return Array((Self.columns.joined(separator: ",") + "\n" + line + "\n").utf8)
    }

    /// A CSV field, quoted when it must be (RFC 4180).
    static func quoted(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
