import ChainImport
import LocationStore

/// A location as the admin API answers it: every field of `LocationField`'s table under its answered name, a field
/// the location has none of left out (as `openapi.yaml`'s AdminLocation has it, not as `null`).
struct AdminLocation: Encodable {
    let location: Location

    init(_ location: Location) { self.location = location }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: LocationMember.self)
        for field in LocationField.all {
            let member = LocationMember(field.answerName)
            switch field.read(location) {
            case .text(let text): try c.encode(text, forKey: member)
            case .number(let number): try c.encode(number, forKey: member)
            case .integer(let integer): try c.encode(integer, forKey: member)
            case nil: continue
            }
        }
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
