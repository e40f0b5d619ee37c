import ChainImport

/// The body of `POST /admin/locations` and `PUT`/`PATCH /admin/locations/{id}`: a location's fields, named as the
/// import's roles are (`radius_meters` for its `radius_m` column). In a `PATCH` only the fields present change and
/// `null` clears one; in a `PUT` a field left out is cleared.
///
/// It also takes what the API answers, so that a GET's body PUT back is a no-op: `network_id` for `network`, `lat` and
/// `lon` (the public API's names) for `latitude` and `longitude`, and the fields the store sets, `source_import_id`
/// and the global `id`, which are checked against the location and ignored when they match. Which `id` is which: with
/// `external_id` in the body, `id` is the global `loc_<network>_<id>` (as answered); without it, `id` is the id within
/// the network (the import's column). The members, their types, aliases and limits are `LocationField`'s.
struct LocationBody: Decodable, Sendable {
    /// A field the body gave, with its value (nil: given as `null`).
    struct Given: Sendable {
        let field: LocationField
        let value: LocationField.Value?
    }

    /// The fields given, in the table's order.
    private(set) var given: [Given] = []

    init(from decoder: any Decoder) throws {
        // A misspelt field ("lattitude") is refused, not ignored: it would otherwise clear the field it meant.
        try UnknownMembers.refuse(in: decoder, knowing: LocationMember.self, what: "a location")
        let c = try decoder.container(keyedBy: LocationMember.self)
        let answerShaped = c.contains(LocationMember(LocationField.id.answerName))
        for field in LocationField.all {
            var first: LocationMember?
            var value: LocationField.Value?
            for member in Self.members(of: field, answerShaped: answerShaped) where c.contains(member) {
                let next = try Self.decode(field, member, from: c)
                // `network` and `network_id`, `lat` and `latitude`: two names of one field must say the same.
                if let first, next != value {
                    throw FieldRefusal(
                        field: member.name, message: "'\(first.name)' and '\(member.name)' name the same field with different values",
                        contradictory: true)
                }
                first = first ?? member
                value = next
            }
            if first != nil { given.append(Given(field: field, value: value)) }
        }
    }

    /// The members that give `field`. A read-only one comes back under the name the API answered it with; and which
    /// `id` is which: beside `external_id` (an answer's shape) it is the global id, without it the import's id column.
    static func members(of field: LocationField, answerShaped: Bool) -> [LocationMember] {
        let names = field.isReadOnly ? [field.answerName] : [field.name] + field.aliases
        let globalId = LocationField.locationId.answerName
        return names.filter { $0 != globalId || field.isReadOnly == answerShaped }.map(LocationMember.init)
    }

    private static func decode(
        _ field: LocationField, _ member: LocationMember, from c: KeyedDecodingContainer<LocationMember>
    ) throws -> LocationField.Value? {
        if try c.decodeNil(forKey: member) { return nil }
        switch field.slot {
        case .text: return .text(try c.decode(String.self, forKey: member))
        case .number: return .number(try c.decode(Double.self, forKey: member))
        case .integer: return .integer(try c.decode(Int64.self, forKey: member))
        }
    }

    /// Checks the text fields as the document does (no control characters, at most the store's length) before the
    /// import's own checks see them.
    func checked() throws -> LocationBody {
        for given in given {
            guard case .text(let text) = given.value, let limit = given.field.limit else { continue }
            try AdminText.check(text, field: given.field.bodyName, limit: limit)
        }
        return self
    }

    /// `fields` with this body applied: every field given set, every `null` cleared, the read-only fields to check
    /// (left out, they are nil: nothing to check).
    func apply(to fields: inout LocationFields) {
        for field in LocationField.all {
            let given = given.first { $0.field.name == field.name }
            guard given != nil || field.isReadOnly else { continue }
            fields[field] = given?.value
        }
    }

    /// The body as a whole location (a `POST` or a `PUT`).
    var fields: LocationFields {
        var f = LocationFields()
        apply(to: &f)
        return f
    }
}
