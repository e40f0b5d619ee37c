import Geo

/// Counts and extent of a store, for `oncue db stats`.
public struct StoreStats: Sendable, Hashable {
    public var locationCount: Int
    public var networkCounts: [(networkId: String, count: Int)]
    /// nil for an empty store.
    public var bounds: GeoBox?
    public var fileSizeBytes: Int64?
    public var schemaVersion: Int
    public var importCount: Int

    public init(
        locationCount: Int, networkCounts: [(networkId: String, count: Int)], bounds: GeoBox?, fileSizeBytes: Int64?,
        schemaVersion: Int, importCount: Int
    ) {
        self.locationCount = locationCount
        self.networkCounts = networkCounts
        self.bounds = bounds
        self.fileSizeBytes = fileSizeBytes
        self.schemaVersion = schemaVersion
        self.importCount = importCount
    }

    public static func == (a: StoreStats, b: StoreStats) -> Bool {
        a.locationCount == b.locationCount && a.bounds == b.bounds && a.fileSizeBytes == b.fileSizeBytes
            && a.schemaVersion == b.schemaVersion && a.importCount == b.importCount
            && a.networkCounts.map(\.networkId) == b.networkCounts.map(\.networkId)
            && a.networkCounts.map(\.count) == b.networkCounts.map(\.count)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(locationCount)
        hasher.combine(schemaVersion)
    }
}
