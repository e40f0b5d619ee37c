/// What changed in a store after a version: enough to bring an in-memory index built at that version up to the
/// store's current one without reading every location again.
///
/// Records are the locations' current state (an id listed twice would be listed once, as it is now), so applying the
/// same changes twice, or changes that overlap ones already applied, gives the same index: a reader may ask again
/// from any version it has seen.
public struct StoreChanges: Sendable {
    /// The version the changes bring an index to.
    public var version: Int64
    /// Locations inserted or updated after the version asked from (a network whose name or radius settings changed
    /// lists every location of it).
    public var upserted: [IndexRecord]
    /// Ids of locations deleted after it (renamed ones included) that do not exist now.
    public var deletedIds: [String]
    /// Every network now, with its aliases: few, and read whole. Their location counts are not read (0): counting
    /// reads every location, and the index applying the changes knows them.
    public var networks: [NetworkSummary]

    public init(version: Int64, upserted: [IndexRecord], deletedIds: [String], networks: [NetworkSummary]) {
        self.version = version
        self.upserted = upserted
        self.deletedIds = deletedIds
        self.networks = networks
    }

    /// Locations changed, upserted and deleted.
    public var count: Int { upserted.count + deletedIds.count }
}

/// How much change history a store keeps for readers that bring their index up to date by changes.
public enum ChangeHistory {
    /// Tombstones are kept for this many versions (change transactions); a reader further behind reads everything.
    public static let keptVersions: Int64 = 10_000
    /// Every this many versions, the older history is pruned.
    public static let pruneEvery: Int64 = 1_000
}
