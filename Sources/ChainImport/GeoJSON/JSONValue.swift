/// A JSON value as the GeoJSON import reads one feature (`JSONReader`).
///
/// Numbers keep what a property's text needs: an integer keeps the digits it was written with (a 20-digit `ref` is
/// not rounded to a double), any other number is its double.
///
/// Arrays of coordinates are kept packed: an array of non-integer numbers (a position) as `numbers`, an array of
/// positions of one length (a ring, a line) as `positions`, 8 bytes a number. As a tree of values, a ring cost about
/// 200 bytes a vertex, 12 times its text: a polygon of 10 million vertices (230 MB) took 2.8 GB. `array` reads either
/// as the elements they stand for.
indirect enum JSONValue {
    /// Members in the order written; a name written twice counts as its last value, as in most parsers.
    case object([(name: String, value: JSONValue)])
    case array([JSONValue])
    /// An array of numbers none of which was written as an integer.
    case numbers([Double])
    /// An array of `numbers` arrays that all have `dimension` elements, their numbers one after another.
    case positions([Double], dimension: Int)
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
        switch self {
        case .array(let elements): elements
        case .numbers(let values): values.map { .number($0, integer: nil) }
        case .positions(let values, let dimension):
            stride(from: 0, to: values.count, by: dimension).map { .numbers(Array(values[$0..<$0 + dimension])) }
        default: nil
        }
    }

    /// An array of positions as its numbers one after another and their count per position, without building a value
    /// per position; nil when the value is not an array of equally long arrays of numbers.
    var packedPositions: (values: [Double], dimension: Int)? {
        switch self {
        case .positions(let values, let dimension): return (values, dimension)
        case .array(let elements):
            // Positions with integers among their numbers (`[-73, 40.5]`) are kept as values; pack them here.
            guard let first = elements.first?.array?.count, first > 0 else { return elements.isEmpty ? ([], 2) : nil }
            var values: [Double] = []
            values.reserveCapacity(elements.count * first)
            for element in elements {
                guard let numbers = element.array, numbers.count == first else { return nil }
                for number in numbers {
                    guard let value = number.number else { return nil }
                    values.append(value)
                }
            }
            return (values, first)
        default: return nil
        }
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
        case .null, .object, .array, .numbers, .positions: nil
        }
    }

    /// What kind of value this is, for messages.
    var kind: String {
        switch self {
        case .object: "object"
        case .array, .numbers, .positions: "array"
        case .string: "string"
        case .number: "number"
        case .bool: "boolean"
        case .null: "null"
        }
    }
}
