import Foundation
import LocationStore

/// A key as the admin API and `oncue keys --json` show it: never its hash, the token only in the answer that made it;
/// snake_case members and ISO 8601 times, as the API's other documents and the command line's JSON have them.
package struct AdminKeyView: Encodable, Sendable {
    package var id: String
    package var name: String
    package var role: AdminRole
    package var createdAt: String
    package var revokedAt: String?
    package var token: String?

    enum CodingKeys: String, CodingKey {
        case id, name, role, token
        case createdAt = "created_at"
        case revokedAt = "revoked_at"
    }

    package init(_ key: AdminKey, token: String? = nil) {
        id = key.id
        name = key.name
        role = key.role
        createdAt = key.createdAt.formatted(.iso8601)
        revokedAt = key.revokedAt?.formatted(.iso8601)
        self.token = token
    }
}
