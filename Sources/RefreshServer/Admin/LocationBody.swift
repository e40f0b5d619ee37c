import ChainImport
import Foundation
import Geo
import LocationStore

/// The body of `POST /admin/locations` and `PUT`/`PATCH /admin/locations/{id}`: a location's fields, named as the
/// import's roles are (`radius_meters` and `venue_radius_meters` for its `radius_m` and `venue_radius_m` columns). In a
/// `PATCH` only the fields present change and `null` clears one; in a `PUT` a field left out is cleared.
struct LocationBody: Decodable, Sendable {
    /// The fields given, each with its value (nil: given as `null`).
    private(set) var given: [Key: Value] = [:]

    enum Key: String, CodingKey, CaseIterable {
        case id, network, name, address, city, region, postalCode, country, latitude, longitude, radiusMeters, venueRadiusMeters
        case openingHours
    }

    enum Value: Sendable, Equatable {
        case text(String)
        case number(Double)
    }

    init(from decoder: any Decoder) throws {
        // A misspelt field ("lattitude") is refused, not ignored: it would otherwise clear the field it meant.
        try UnknownMembers.refuse(in: decoder, knowing: Key.self, what: "a location")
        let c = try decoder.container(keyedBy: Key.self)
        for key in Key.allCases where c.contains(key) {
            if try c.decodeNil(forKey: key) { continue }
            switch key {
            case .latitude, .longitude, .radiusMeters, .venueRadiusMeters: given[key] = .number(try c.decode(Double.self, forKey: key))
            default: given[key] = .text(try c.decode(String.self, forKey: key))
            }
        }
        for key in Key.allCases where c.contains(key) && given[key] == nil { nulls.insert(key) }
    }

    /// Fields given as `null`.
    private(set) var nulls = Set<Key>()

    /// Checks the text fields as the document does (no control characters, at most the store's length) before the
    /// import's own checks see them.
    func checked() throws -> LocationBody {
        for (key, value) in given {
            guard case .text(let text) = value else { continue }
            try AdminText.check(text, field: key.snakeName, limit: key.limit)
        }
        return self
    }

    /// `fields` with this body applied: every field given set, every `null` cleared.
    func apply(to fields: inout LocationFields) {
        for key in Key.allCases {
            guard given[key] != nil || nulls.contains(key) else { continue }
            let text: String? = if case .text(let t) = given[key] { t } else { nil }
            let number: Double? = if case .number(let n) = given[key] { n } else { nil }
            switch key {
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
    }

    /// The body as a whole location (a `POST` or a `PUT`).
    var fields: LocationFields {
        var f = LocationFields()
        apply(to: &f)
        return f
    }
}

extension LocationBody.Key {
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

    var snakeName: String {
        switch self {
        case .postalCode: "postal_code"
        case .radiusMeters: "radius_meters"
        case .venueRadiusMeters: "venue_radius_meters"
        case .openingHours: "opening_hours"
        default: rawValue
        }
    }
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
