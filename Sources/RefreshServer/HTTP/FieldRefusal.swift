/// A member of a JSON body refused by name: unknown (with the field it most likely meant), or at odds with another.
/// `RequestBodyReader` answers it naming the member, in the words given here: an unknown member as 400
/// `invalid_field`; two names of one field with different values (`lon` and `longitude`) as 422 `conflicting_fields`,
/// since such a body is valid by the document's schema — it only says two things at once.
struct FieldRefusal: Error, Sendable {
    let field: String
    let message: String
    var contradictory = false
}

/// JSON member names as the API writes them: `postal_code` for the decoder's `postalCode`.
enum SnakeCase {
    static func of(_ camel: String) -> String {
        var out = ""
        for ch in camel {
            if ch.isUppercase {
                out += "_" + ch.lowercased()
            } else {
                out.append(ch)
            }
        }
        return out
    }
}
