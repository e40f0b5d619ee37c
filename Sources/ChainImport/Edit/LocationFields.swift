import Foundation
import Geo
import LocationStore

/// One location as an admin writes it by hand: the body of `POST /admin/locations` and `PUT`/`PATCH
/// /admin/locations/{id}`, and what `oncue locations add|set` build from their options. The names are the import's
/// columns (`FieldRole`), so a field means here what it means in a file.
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

    /// The fields of a stored location, for a patch to change some of them.
    package init(_ location: Location) {
        id = location.externalId
        network = location.networkId
        name = location.name
        address = location.address
        city = location.city
        region = location.region
        postalCode = location.postalCode
        country = location.country
        latitude = location.coordinate.latitude
        longitude = location.coordinate.longitude
        radiusMeters = location.radiusMeters
        venueRadiusMeters = location.venueRadiusMeters
        openingHours = location.openingHours
    }

    /// The import's columns, in the order `csv` writes them.
    static let columns = [
        "id", "name", "address", "city", "region", "postal_code", "country", "latitude", "longitude", "radius_m",
        "venue_radius_m", "opening_hours",
    ]

    /// A one-row CSV of these fields under the import's column names: the edit goes through exactly the checks, reason
    /// codes and change versions a file's row does.
    var csv: [UInt8] {
        func number(_ v: Double?) -> String { v.map { "\($0)" } ?? "" }
        let values = [
            id ?? "", name ?? "", address ?? "", city ?? "", region ?? "", postalCode ?? "", country ?? "", number(latitude),
            number(longitude), number(radiusMeters), number(venueRadiusMeters), openingHours ?? "",
        ]
        let line = values.map(Self.quoted).joined(separator: ",")
        return Array((Self.columns.joined(separator: ",") + "\n" + line + "\n").utf8)
    }

    /// A CSV field, quoted when it must be (RFC 4180).
    static func quoted(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
