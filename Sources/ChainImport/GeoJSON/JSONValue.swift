/// A JSON value as the GeoJSON import reads one feature (`JSONReader`).
///
/// Numbers keep what a property's text needs: an integer keeps the digits it was written with (a 20-digit `ref` is
/// not rounded to a double), any other number is its double.
indirect enum JSONValue {
    /// Members in the order written; a name written twice counts as its last value, as in most parsers.
    case object([(name: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    case number(Double, integer: String?)
    case bool(Bool)
    case null

    /// The value of the member `name` of an object (its last, if written twice); nil for a missing member or a value
    /// that is no object.
    subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.name == name }?.value
    }

    var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    var number: Double? {
        if case .number(let value, _) = self { value } else { nil }
    }

    var array: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    var isNull: Bool {
        if case .null = self { true } else { false }
    }

    /// The value as the text a CSV cell would hold: strings as they are (`"250"` reads as 250 where a number is
    /// wanted, as in a CSV), integers as written, other numbers in their shortest form, `true`/`false` as words
    /// (never 1 and 0, which a `radius_m` would take for metres); `null`, objects and arrays have none.
    var text: String? {
        switch self {
        case .string(let text): text
        case .number(_, let integer?): integer
        case .number(let value, nil): "\(value)"
        case .bool(let flag): flag ? "true" : "false"
        case .null, .object, .array: nil
        }
    }

    /// What kind of value this is, for messages.
    var kind: String {
        switch self {
        case .object: "object"
        case .array: "array"
        case .string: "string"
        case .number: "number"
        case .bool: "boolean"
        case .null: "null"
        }
    }
}
