import Foundation

/// An admin key as the store keeps it: never the secret itself, only its SHA-256, so a copy of the store grants
/// nothing. A revoked key stays listed (the audit log names it) but authenticates nothing.
public struct AdminKey: Sendable, Hashable, Codable {
    /// A short public name for the key (`k_` and 12 base-32 characters), shown in listings and the audit log.
    public var id: String
    /// Who or what holds it, as its creator said.
    public var name: String
    public var role: AdminRole
    /// Lower-case hex SHA-256 of the whole bearer token.
    public var secretSHA256: String
    public var createdAt: Date
    public var revokedAt: Date?

    public init(id: String, name: String, role: AdminRole, secretSHA256: String, createdAt: Date, revokedAt: Date? = nil) {
        self.id = id
        self.name = name
        self.role = role
        self.secretSHA256 = secretSHA256
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    public var isRevoked: Bool { revokedAt != nil }
}
