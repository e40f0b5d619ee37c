/// A member of a JSON body refused by name: unknown (with the field it most likely meant), or at odds with another.
/// `RequestBodyReader` answers it as 400 `invalid_field`, naming the member, in the words given here.
struct FieldRefusal: Error, Sendable {
    let field: String
    let message: String
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
