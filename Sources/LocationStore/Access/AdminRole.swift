/// What an admin key may do. Each role can do what the roles before it can.
public enum AdminRole: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Reads the import log, jobs, one location, and its own identity: analysts and the console's read views.
    case read
    /// Also imports files and edits one location at a time.
    case `import`
    /// Also changes networks (rename, alias, merge, delete), manages keys and reads the audit log.
    case admin

    public static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }

    private var rank: Int {
        switch self {
        case .read: 0
        case .import: 1
        case .admin: 2
        }
    }
}
