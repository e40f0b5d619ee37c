import ChainImport

/// A member of a location's admin JSON, a body's or an answer's, named from `LocationField`'s table: a key made at
/// run time, so that a field added to the table is taken and answered without a line here.
struct LocationMember: CodingKey, CaseIterable, Hashable, Sendable {
    /// The member as the wire names it, snake_case.
    let name: String
    /// The name as `Codable` sees it: the admin API's decoder and encoder convert between it and `name`
    /// (`convertFromSnakeCase`, `convertToSnakeCase`).
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) {
        self.name = name
        stringValue = Self.camelCase(name)
    }

    /// Only the members a body may give: the rest are refused by name (`UnknownMembers`).
    init?(stringValue: String) {
        guard let known = Self.allCases.first(where: { $0.stringValue == stringValue }) else { return nil }
        self = known
    }

    init?(intValue: Int) { nil }

    /// Every member a body may give, each once: a field's name and aliases, and a read-only field's answered name
    /// (so that a GET's body can be PUT back). In the table's order, which `UnknownMembers`' hint breaks ties by.
    static let allCases: [LocationMember] = {
        var seen = Set<String>()
        let names = LocationField.all.flatMap { $0.isReadOnly ? [$0.answerName] : [$0.name] + $0.aliases }
        return names.filter { seen.insert($0).inserted }.map(LocationMember.init)
    }()

    /// `postal_code` as `convertFromSnakeCase` turns it: `postalCode`.
    static func camelCase(_ snake: String) -> String {
        let words = snake.split(separator: "_")
        return (words.first.map(String.init) ?? "") + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
