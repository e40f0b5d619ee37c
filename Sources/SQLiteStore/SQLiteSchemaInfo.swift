import LocationStore

/// Public facts about the SQLite schema, for tools that report them.
public enum SQLiteSchemaInfo {
    public static var currentVersion: Int { SQLiteSchema.currentVersion }
    public static var applicationId: Int64 { SQLiteSchema.applicationId }
}
