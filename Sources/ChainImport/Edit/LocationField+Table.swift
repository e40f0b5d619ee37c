import Geo
import LocationStore

extension LocationField {
    /// Every field, in the order the edit's CSV and the export write their columns.
    package static let all: [LocationField] = [
        id, network, locationName, address, city, region, postalCode, country, latitude, longitude, radiusMeters, venueRadiusMeters,
        openingHours, locationId, sourceImportId,
    ]

    /// The id within the network. A body that carries the answer's `external_id` means the global id by `id`
    /// (`LocationBody`); without it, `id` is this, the import's column.
    package static let id = LocationField(
        "id", answer: "external_id", aliases: ["external_id"], column: "id", .text(\.id, limit: FieldLimits.locationId),
        read: { .text($0.externalId) })
    /// A network id, alias or name; the edit passes it as the import's network, not as a column.
    package static let network = LocationField(
        "network", answer: "network_id", aliases: ["network_id"], exportedAs: "network", .text(\.network, limit: FieldLimits.alias),
        read: { .text($0.networkId) })
    package static let locationName = LocationField(
        "name", column: "name", .text(\.name, limit: FieldLimits.locationName), read: { .text($0.name) })
    package static let address = LocationField(
        "address", column: "address", .text(\.address, limit: FieldLimits.address), read: { $0.address.map(Value.text) })
    package static let city = LocationField(
        "city", column: "city", .text(\.city, limit: FieldLimits.place), read: { $0.city.map(Value.text) })
    package static let region = LocationField(
        "region", column: "region", exportedAs: "state", .text(\.region, limit: FieldLimits.place), read: { $0.region.map(Value.text) })
    package static let postalCode = LocationField(
        "postal_code", column: "postal_code", exportedAs: "postcode", .text(\.postalCode, limit: FieldLimits.place),
        read: { $0.postalCode.map(Value.text) })
    package static let country = LocationField(
        "country", column: "country", .text(\.country, limit: FieldLimits.place), read: { $0.country.map(Value.text) })
    /// `lat` and `lon` are the public API's names, which a body may use too.
    package static let latitude = LocationField(
        "latitude", aliases: ["lat"], column: "latitude", exportedAs: "lat", .number(\.latitude),
        read: { .number($0.coordinate.latitude) })
    package static let longitude = LocationField(
        "longitude", aliases: ["lon"], column: "longitude", exportedAs: "lon", .number(\.longitude),
        read: { .number($0.coordinate.longitude) })
    package static let radiusMeters = LocationField(
        "radius_meters", column: "radius_m", .number(\.radiusMeters), read: { $0.radiusMeters.map(Value.number) })
    package static let venueRadiusMeters = LocationField(
        "venue_radius_meters", column: "venue_radius_m", .number(\.venueRadiusMeters), read: { $0.venueRadiusMeters.map(Value.number) })
    package static let openingHours = LocationField(
        "opening_hours", column: "opening_hours", .text(\.openingHours, limit: FieldLimits.openingHours),
        read: { $0.openingHours.map(Value.text) })
    /// The global id, `loc_<network>_<id>`: what the store makes of the network and the id.
    package static let locationId = LocationField(
        "location_id", answer: "id", readOnly: true,
        .text(\.locationId, limit: FieldLimits.locationId + FieldLimits.networkId + "loc__".count), read: { .text($0.id) })
    /// The import that last wrote the location.
    package static let sourceImportId = LocationField(
        "source_import_id", readOnly: true, .integer(\.sourceImportId), read: { $0.sourceImportId.map(Value.integer) })
}
