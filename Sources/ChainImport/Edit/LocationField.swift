import LocationStore

/// One field of a location, said once for every place that projects it: the admin API's body (`LocationBody`) and
/// answer (`AdminLocation`), an edit's one-row CSV (`LocationFields.csv`) and the export (`LocationExport`). Each of
/// those walks `LocationField.all`, so a new field is one entry here, not one more line in each of them.
package struct LocationField: Sendable {
    /// A field's value as every side carries it.
    package enum Value: Sendable, Equatable {
        case text(String)
        case number(Double)
        case integer(Int64)
    }

    /// Where an edit holds the field, and so what JSON type a body gives it in.
    package enum Slot: Sendable {
        /// Text, at most `limit` characters (the store's column).
        case text(any WritableKeyPath<LocationFields, String?> & Sendable, limit: Int)
        case number(any WritableKeyPath<LocationFields, Double?> & Sendable)
        case integer(any WritableKeyPath<LocationFields, Int64?> & Sendable)
    }

    /// The field's own name (snake_case), unique in the table: the admin body's member for it and the name its
    /// errors give.
    package let name: String
    /// The member the admin API answers with (`network_id` for `network`); a read-only field comes back under it.
    package let answerName: String
    /// Other members a body may give it under: the answer's name, the public API's (`lat`).
    package let aliases: [String]
    /// The import's column in an edit's one-row CSV; nil when the edit passes it otherwise (the network is the
    /// import's option) or never (what the store sets).
    package let column: String?
    /// The export's column, named as the importer finds it without a mapping; nil when the export leaves it out.
    package let exportColumn: String?
    /// Set by the store, not by an edit: a body may repeat it only to say what it read.
    package let isReadOnly: Bool
    package let slot: Slot
    /// The field as a stored location holds it; nil when it has none.
    package let read: @Sendable (Location) -> Value?

    init(
        _ name: String, answer: String? = nil, aliases: [String] = [], column: String? = nil, exportedAs: String? = nil,
        readOnly: Bool = false, _ slot: Slot, read: @escaping @Sendable (Location) -> Value?
    ) {
        self.name = name
        answerName = answer ?? name
        self.aliases = aliases
        self.column = column
        exportColumn = exportedAs ?? column
        isReadOnly = readOnly
        self.slot = slot
        self.read = read
    }

    /// The member a body gives the field under in its errors: a read-only field is only ever sent back as answered.
    package var bodyName: String { isReadOnly ? answerName : name }

    /// The longest text the field holds; nil for a number.
    package var limit: Int? {
        if case .text(_, let limit) = slot { return limit }
        return nil
    }
}

extension LocationField.Value {
    package var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    package var number: Double? {
        if case .number(let number) = self { return number }
        return nil
    }

    package var integer: Int64? {
        if case .integer(let integer) = self { return integer }
        return nil
    }

    /// The value as the import reads it in a CSV cell (`"\(double)"`: the shortest text that reads back the same).
    package var csvText: String {
        switch self {
        case .text(let text): text
        case .number(let number): "\(number)"
        case .integer(let integer): "\(integer)"
        }
    }
}

extension LocationFields {
    /// The edit's slot for `field`.
    package subscript(field: LocationField) -> LocationField.Value? {
        get {
            switch field.slot {
            case .text(let path, _): self[keyPath: path].map(LocationField.Value.text)
            case .number(let path): self[keyPath: path].map(LocationField.Value.number)
            case .integer(let path): self[keyPath: path].map(LocationField.Value.integer)
            }
        }
        set {
            switch field.slot {
            case .text(let path, _): self[keyPath: path] = newValue?.text
            case .number(let path): self[keyPath: path] = newValue?.number
            case .integer(let path): self[keyPath: path] = newValue?.integer
            }
        }
    }
}
