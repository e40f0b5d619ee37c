import OnCueContract

/// Refuses a JSON object's members a body type does not have: a misspelt field ("lattitude", "rol") would otherwise
/// be ignored and the request carried out without it.
enum UnknownMembers {
    /// Any member name, to find the ones `Known` does not have.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Throws a `FieldRefusal` naming the first member that is not a `Known` key, and the known one it most likely
    /// meant; `what` names the body ("a location").
    static func refuse<Known: CodingKey & CaseIterable>(in decoder: any Decoder, knowing _: Known.Type, what: String) throws {
        for key in try decoder.container(keyedBy: AnyKey.self).allKeys where Known(stringValue: key.stringValue) == nil {
            // The decoder has turned snake_case into camelCase; the client wrote (and reads) snake_case.
            let name = SnakeCase.of(String(key.stringValue.prefix(100)))
            let known = Known.allCases.map { SnakeCase.of($0.stringValue) }
            let hint = FieldNames.nearest(name, among: known).map { " (did you mean '\($0)'?)" } ?? ""
            throw FieldRefusal(field: name, message: "\(what) has no field '\(name)'\(hint)")
        }
    }
}
