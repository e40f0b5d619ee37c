import LocationStore

/// A change to a network's settings, with the one rule `oncue networks set`, `PUT` and `PATCH /admin/networks/{id}`
/// share. A field left nil is unchanged; `category` and `defaultRadiusMeters` set to `.some(nil)` are removed.
public struct NetworkChange: Sendable, Hashable {
    public var name: String?
    public var category: String??
    public var isLargeArea: Bool?
    public var defaultRadiusMeters: Double??

    public init(name: String? = nil, category: String?? = nil, isLargeArea: Bool? = nil, defaultRadiusMeters: Double?? = nil) {
        self.name = name
        self.category = category
        self.isLargeArea = isLargeArea
        self.defaultRadiusMeters = defaultRadiusMeters
    }

    /// A field the rule refuses: its wire name and why.
    public struct Problem: Error, Sendable, Hashable {
        public var field: String
        public var reason: String
    }

    /// The first field the rule refuses, if any: a name of 1 to 200 characters with something besides white space, a
    /// category of at most 100, neither with control characters; a radius within `EngineConfiguration`'s rule.
    public func problem() -> Problem? {
        if let name {
            if let p = Self.textProblem(name, limit: FieldLimits.networkName) { return Problem(field: "name", reason: p) }
            if !name.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) {
                return Problem(field: "name", reason: "must hold more than white space")
            }
            if let p = NetworkText.problem(name) { return Problem(field: "name", reason: p) }
        }
        if case .some(.some(let category)) = category, let p = Self.textProblem(category, limit: FieldLimits.category) {
            return Problem(field: "category", reason: p)
        }
        if case .some(.some(let r)) = defaultRadiusMeters, !EngineConfiguration.isValidNetworkRadius(r) {
            return Problem(field: "default_radius_meters", reason: "must be \(EngineConfiguration.networkRadiusRule), or null to remove it")
        }
        return nil
    }

    private static func textProblem(_ text: String, limit: Int) -> String? {
        if FieldLimits.exceeds(text, limit) { return "must be at most \(limit) characters" }
        if text.unicodeScalars.contains(where: FieldLimits.isControl) { return "must not hold control characters" }
        return nil
    }

    /// Why a new network may not take `id`, given the ids that exist: its text (`NetworkText.problem`), or its looking
    /// like one of them (make it an alias of that one instead).
    public static func newIdProblem(_ id: String, existing: some Sequence<String>) -> String? {
        if let other = NetworkText.lookAlike(of: id, among: existing) {
            return "network id '\(id)' looks like the existing network '\(other)'; if it means that one, make it an alias of it"
        }
        return NetworkText.problem(id).map { "network id '\(id)' \($0)" }
    }

    /// `network` with this change applied (a new network named by its id when there was none).
    public func applied(to network: Network?, id: String) -> Network {
        var n = network ?? Network(id: id, name: name ?? id)
        if let name { n.name = name }
        if let category { n.category = category.flatMap { $0.isEmpty ? nil : $0 } }
        if let isLargeArea { n.isLargeArea = isLargeArea }
        if let defaultRadiusMeters { n.defaultRadiusMeters = defaultRadiusMeters }
        return n
    }
}
