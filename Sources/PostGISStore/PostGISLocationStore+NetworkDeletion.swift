import LocationStore
import PostgresNIO

extension PostGISLocationStore {
    public func deleteNetwork(id: String) async throws -> NetworkDeletion? {
        try await changing {
            guard try await network(id: id) != nil else { return nil }
            let (lower, upper) = PostGISSchema.networkIdRange(id)
            try await query("DELETE FROM geocoded_locations WHERE location_id >= \(lower) AND location_id < \(upper)")
            let removed = try await rows(
                "DELETE FROM locations WHERE id >= \(lower) AND id < \(upper) AND network_id = \(id) RETURNING 1"
            ).count
            let aliases = try await rows("DELETE FROM network_aliases WHERE network_id = \(id) RETURNING 1").count
            try await query("DELETE FROM networks WHERE id = \(id)")
            return NetworkDeletion(networkId: id, locationsRemoved: removed, aliasesRemoved: aliases)
        }
    }

    public func locations(networkId: String) async throws -> [Location] {
        let (lower, upper) = PostGISSchema.networkIdRange(networkId)
        return try await rows(
            """
            SELECT \(unescaped: Self.locationColumns) FROM locations
            WHERE id >= \(lower) AND id < \(upper) AND network_id = \(networkId) ORDER BY id
            """
        ).map(Self.readLocation)
    }
}
