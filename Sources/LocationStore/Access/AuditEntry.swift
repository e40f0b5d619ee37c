import Foundation

/// One admin write as the audit log keeps it: who (the key), what (the action and its target), when, and how it
/// ended (the HTTP status, or the CLI's `ok`/`failed`).
public struct AuditEntry: Sendable, Hashable, Encodable {
    /// Assigned by the store; increasing, so it is also the listing's cursor.
    public var id: Int64?
    public var at: Date
    /// The key that acted: an admin key's id, `bootstrap` for the configured admin token, `cli` for a local command.
    public var keyId: String
    /// What was done, such as `POST /admin/networks/{id}/merge` or `keys revoke`.
    public var action: String
    /// What it was done to: the request's path, or the command's subject.
    public var target: String
    /// How it ended: an HTTP status (`202`, `403`) or `ok`/`failed`.
    public var result: String
    /// A short note: the job an import started, a refusal's reason. Never a coordinate or a secret.
    public var detail: String?

    /// snake_case members and an ISO 8601 time, as the admin API and the command line's JSON show them.
    enum CodingKeys: String, CodingKey {
        case id, at, action, target, result, detail
        case keyId = "key_id"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(id, forKey: .id)
        try c.encode(at.formatted(.iso8601), forKey: .at)
        try c.encode(keyId, forKey: .keyId)
        try c.encode(action, forKey: .action)
        try c.encode(target, forKey: .target)
        try c.encode(result, forKey: .result)
        try c.encodeIfPresent(detail, forKey: .detail)
    }

    /// The longest action, target and detail kept, in characters: a request may name a path of 70 KB, and its entry
    /// must not cost the log that much. A longer text keeps its first characters and ends with `…`.
    public static let maxFieldLength = 300

    /// Every text is cut to `maxFieldLength` (the key id and the result are short by construction).
    public init(id: Int64? = nil, at: Date, keyId: String, action: String, target: String, result: String, detail: String? = nil) {
        self.id = id
        self.at = at
        self.keyId = Self.bounded(keyId)
        self.action = Self.bounded(action)
        self.target = Self.bounded(target)
        self.result = Self.bounded(result)
        self.detail = detail.map(Self.bounded)
    }

    static func bounded(_ text: String) -> String {
        guard text.utf8.count > maxFieldLength else { return text }
        return String(text.prefix(maxFieldLength - 1)) + "…"
    }
}
