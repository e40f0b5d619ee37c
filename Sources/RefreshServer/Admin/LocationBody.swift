import ChainImport
import Foundation
import Geo
import LocationStore

/// The body of `POST /admin/locations` and `PUT`/`PATCH /admin/locations/{id}`: a location's fields, named as the
/// import's roles are (`radius_meters` and `venue_radius_meters` for its `radius_m` and `venue_radius_m` columns). In a
/// `PATCH` only the fields present change and `null` clears one; in a `PUT` a field left out is cleared.
///
/// It also takes what the API answers, so that a GET's body PUT back is a no-op: `network_id` for `network`, `lat` and
/// `lon` (the public API's names) for `latitude` and `longitude`, and the fields the store sets, `source_import_id`
/// and the global `id`, which are checked against the location and ignored when they match. Which `id` is which: with
/// `external_id` in the body, `id` is the global `loc_<network>_<id>` (as answered); without it, `id` is the id within
/// the network (the import's column).
struct LocationBody: Decodable, Sendable {
    /// The fields given, each with its value (nil: given as `null`).
    private(set) var given: [Field: Value] = [:]
    /// Fields given as `null`.
    private(set) var nulls = Set<Field>()
    /// The read-only fields as the client sent them back.
    private(set) var locationId: String?
    private(set) var sourceImportId: Int64?

    /// A location's fields, each under the name the import gives it.
    enum Field: String, CaseIterable, Sendable {
        case id, network, name, address, city, region, postalCode, country, latitude, longitude, radiusMeters, venueRadiusMeters
        case openingHours
    }

    /// The member names a body may use (after `convertFromSnakeCase`).
    enum Key: String, CodingKey, CaseIterable {
        case id, externalId, network, networkId, name, address, city, region, postalCode, country, latitude, longitude, lat, lon
        case radiusMeters, venueRadiusMeters, openingHours, sourceImportId

        /// The field a member sets; nil for the read-only ones.
        func field(externalIdGiven: Bool) -> Field? {
            switch self {
            case .id: externalIdGiven ? nil : .id
            case .externalId: .id
            case .networkId: .network
            case .lat: .latitude
            case .lon: .longitude
            case .sourceImportId: nil
            default: Field(rawValue: rawValue)
            }
        }
    }

    enum Value: Sendable, Equatable {
        case text(String)
        case number(Double)
    }

    init(from decoder: any Decoder) throws {
        // A misspelt field ("lattitude") is refused, not ignored: it would otherwise clear the field it meant.
        try UnknownMembers.refuse(in: decoder, knowing: Key.self, what: "a location")
        let c = try decoder.container(keyedBy: Key.self)
        let externalIdGiven = c.contains(.externalId)
        if externalIdGiven, c.contains(.id), !(try c.decodeNil(forKey: .id)) { locationId = try c.decode(String.self, forKey: .id) }
        if c.contains(.sourceImportId), !(try c.decodeNil(forKey: .sourceImportId)) {
            sourceImportId = try c.decode(Int64.self, forKey: .sourceImportId)
        }
        var namedBy: [Field: Key] = [:]
        for key in Key.allCases where c.contains(key) {
            guard let field = key.field(externalIdGiven: externalIdGiven) else { continue }
            var value: Value?
            if !(try c.decodeNil(forKey: key)) {
                switch field {
                case .latitude, .longitude, .radiusMeters, .venueRadiusMeters: value = .number(try c.decode(Double.self, forKey: key))
                default: value = .text(try c.decode(String.self, forKey: key))
                }
            }
            // `network` and `network_id`, `lat` and `latitude`: two names of one field must say the same.
            if let first = namedBy[field], given[field] != value {
                throw FieldRefusal(
                    field: key.snakeName, message: "'\(first.snakeName)' and '\(key.snakeName)' name the same field with different values",
                    contradictory: true)
            }
            namedBy[field] = key
            if let value { given[field] = value } else { nulls.insert(field) }
        }
    }

    /// Checks the text fields as the document does (no control characters, at most the store's length) before the
    /// import's own checks see them.
    func checked() throws -> LocationBody {
        for (field, value) in given {
            guard case .text(let text) = value else { continue }
            try AdminText.check(text, field: field.snakeName, limit: field.limit)
        }
        if let locationId { try AdminText.check(locationId, field: "id", limit: FieldLimits.locationId + FieldLimits.networkId + 5) }
        return self
    }

    /// `fields` with this body applied: every field given set, every `null` cleared, the read-only fields to check.
    func apply(to fields: inout LocationFields) {
        for field in Field.allCases {
            guard given[field] != nil || nulls.contains(field) else { continue }
            let text: String? = if case .text(let t) = given[field] { t } else { nil }
            let number: Double? = if case .number(let n) = given[field] { n } else { nil }
            switch field {
            case .id: fields.id = text
            case .network: fields.network = text
            case .name: fields.name = text
            case .address: fields.address = text
            case .city: fields.city = text
            case .region: fields.region = text
            case .postalCode: fields.postalCode = text
            case .country: fields.country = text
            case .latitude: fields.latitude = number
            case .longitude: fields.longitude = number
            case .radiusMeters: fields.radiusMeters = number
            case .venueRadiusMeters: fields.venueRadiusMeters = number
            case .openingHours: fields.openingHours = text
            }
        }
        fields.locationId = locationId
        fields.sourceImportId = sourceImportId
    }

    /// The body as a whole location (a `POST` or a `PUT`).
    var fields: LocationFields {
        var f = LocationFields()
        apply(to: &f)
        return f
    }
}

extension LocationBody.Field {
    /// The longest text the store keeps in this field (the import's own limits).
    var limit: Int {
        switch self {
        case .id: FieldLimits.locationId
        case .network: FieldLimits.alias
        case .name: FieldLimits.locationName
        case .address: FieldLimits.address
        case .openingHours: FieldLimits.openingHours
        default: FieldLimits.place
        }
    }

    var snakeName: String { SnakeCase.of(rawValue) }
}

extension LocationBody.Key {
    var snakeName: String { SnakeCase.of(rawValue) }
}

/// A location as the admin API answers it.
struct AdminLocation: Encodable {
    var id: String
    var networkId: String
    var externalId: String
    var name: String
    var address: String?
    var city: String?
    var region: String?
    var postalCode: String?
    var country: String?
    var latitude: Double
    var longitude: Double
    var radiusMeters: Double?
    var venueRadiusMeters: Double?
    var openingHours: String?
    var sourceImportId: Int64?

    init(_ l: Location) {
        id = l.id
        networkId = l.networkId
        externalId = l.externalId
        name = l.name
        address = l.address
        city = l.city
        region = l.region
        postalCode = l.postalCode
        country = l.country
        latitude = l.coordinate.latitude
        longitude = l.coordinate.longitude
        radiusMeters = l.radiusMeters
        venueRadiusMeters = l.venueRadiusMeters
        openingHours = l.openingHours
        sourceImportId = l.sourceImportId
    }
}

/// What a one-location write did: the location as stored, whether it was new, and the import's warnings for it.
struct LocationEdited: Encodable {
    var location: AdminLocation
    var outcome: String
    var importId: Int64?
    var warnings: [Warning]

    struct Warning: Encodable {
        var code: String
        var message: String
    }

    init(_ o: LocationEditor.Outcome) {
        location = AdminLocation(o.location)
        outcome = o.outcome.rawValue
        importId = o.importId
        warnings = o.warnings.map { Warning(code: $0.code, message: $0.message) }
    }
}
