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

    /// Throws a decoding error naming the first member that is not a `Known` key; `what` names the body ("a location").
    static func refuse<Known: CodingKey>(in decoder: any Decoder, knowing _: Known.Type, what: String) throws {
        for key in try decoder.container(keyedBy: AnyKey.self).allKeys where Known(stringValue: key.stringValue) == nil {
            throw DecodingError.dataCorrupted(.init(codingPath: [key], debugDescription: "\(what) has no field '\(key.stringValue.prefix(100))'"))
        }
    }
}
