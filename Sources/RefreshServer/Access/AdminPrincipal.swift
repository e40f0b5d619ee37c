import LocationStore

/// Who an admin request acts as: a stored key, or the configured bootstrap token (`ONCUE_ADMIN_TOKEN`), an `admin`.
package struct AdminPrincipal: Sendable, Hashable {
    package var keyId: String
    package var name: String
    package var role: AdminRole

    /// The id the audit log gives the configured admin token.
    package static let bootstrapId = "bootstrap"
    package static let bootstrap = AdminPrincipal(keyId: bootstrapId, name: "ONCUE_ADMIN_TOKEN", role: .admin)

    package init(keyId: String, name: String, role: AdminRole) {
        self.keyId = keyId
        self.name = name
        self.role = role
    }

    init(_ key: AdminKey) { self.init(keyId: key.id, name: key.name, role: key.role) }
}
