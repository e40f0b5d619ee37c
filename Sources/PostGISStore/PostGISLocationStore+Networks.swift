import Foundation
import Geo
import LocationStore
import PostgresNIO

extension PostGISLocationStore {
    public func networks() async throws -> [NetworkSummary] { try await networks(counts: .exact) }

    /// What a network list says of each network's locations.
    enum LocationCounts {
        /// How many (a scan of every location).
        case exact
        /// 1 when it has any, else 0: a probe of the primary key per network, for an import that only asks which
        /// networks are new to the store.
        case occupancy
        /// 0 (a reader of changes takes the counts from its index).
        case none
    }

    /// Every network with its aliases and, as `counts` says, its locations.
    func networks(counts: LocationCounts) async throws -> [NetworkSummary] {
        var aliases: [String: [String]] = [:]
        for row in try await rows("SELECT network_id, alias FROM network_aliases ORDER BY network_id, alias COLLATE \"C\"") {
            let (network, alias) = try row.decode((String, String).self)
            aliases[network, default: []].append(alias)
        }
        var result: [NetworkSummary] = []
        for row in try await rows(
            """
            SELECT n.id, n.name, n.category, n.is_large_area, n.default_radius_m, \(unescaped: Self.countColumn(counts)), n.wikidata
            FROM networks n LEFT JOIN (SELECT network_id, count(*) AS n FROM locations WHERE \(unescaped: counts == .exact ? "true" : "false")
                GROUP BY network_id) c ON c.network_id = n.id
            ORDER BY n.id
            """)
        {
            let (id, name, category, large, radius, count, wikidata) = try row.decode(
                (String, String, String?, Bool, Double?, Int64, String?).self)
            result.append(
                NetworkSummary(
                    network: Network(
                        id: id, name: name, category: category, isLargeArea: large, defaultRadiusMeters: radius, wikidata: wikidata),
                    locationCount: Int(count), aliases: aliases[id] ?? []))
        }
        return result
    }

    /// The count column of `networks(counts:)`; occupancy reads the first id of the network's range of the primary key
    /// (`PostGISSchema.networkIdRange`).
    private static func countColumn(_ counts: LocationCounts) -> String {
        guard counts == .occupancy else { return "coalesce(c.n, 0)" }
        return """
            CASE WHEN EXISTS (SELECT 1 FROM locations l WHERE l.id >= 'loc_' || n.id || '_' AND l.id < 'loc_' || n.id || '`'
                AND l.network_id = n.id) THEN 1::bigint ELSE 0::bigint END
            """
    }

    public func network(id: String) async throws -> Network? {
        let found = try await rows("SELECT id, name, category, is_large_area, default_radius_m, wikidata FROM networks WHERE id = \(id)")
        guard let row = found.first else { return nil }
        let (id, name, category, large, radius, wikidata) = try row.decode((String, String, String?, Bool, Double?, String?).self)
        return Network(id: id, name: name, category: category, isLargeArea: large, defaultRadiusMeters: radius, wikidata: wikidata)
    }

    public func brandNetworkIds() async throws -> [(id: String, wikidata: String)] {
        try await rows("SELECT id, wikidata FROM networks WHERE wikidata IS NOT NULL ORDER BY id").map { try $0.decode((String, String).self) }
    }

    public func upsertNetwork(_ network: Network) async throws {
        guard !network.id.isEmpty else { throw StoreError.invalidArgument("a network needs a non-empty id") }
        if let r = network.defaultRadiusMeters, !(r > 0 && r.isFinite) {
            throw StoreError.invalidArgument("default radius must be a positive number of metres, got \(r)")
        }
        try await changing { try await bulkWriter.upsertNetwork(network, changeVersion: try await noteChange()) }
    }

    public func addAlias(_ alias: String, networkId: String) async throws {
        let key = Network.aliasKey(alias)
        guard !key.isEmpty else { throw StoreError.invalidArgument("alias '\(alias)' has no letters or digits") }
        guard try await network(id: networkId) != nil else { throw StoreError.unknownNetwork(networkId) }
        try await changing {
            try await query(
                """
                INSERT INTO network_aliases (alias_key, alias, network_id) VALUES (\(key), \(alias), \(networkId))
                ON CONFLICT (alias_key) DO UPDATE SET alias = EXCLUDED.alias, network_id = EXCLUDED.network_id
                """)
        }
    }

    public func resolveNetwork(_ nameOrAlias: String) async throws -> String? {
        if try await network(id: nameOrAlias) != nil { return nameOrAlias }
        let found = try await rows("SELECT network_id FROM network_aliases WHERE alias_key = \(Network.aliasKey(nameOrAlias))")
        return try found.first?.decode(String.self)
    }

    /// Runs a write that changes what the engine serves: in a transaction, bumping the store version and announcing it
    /// when the outermost transaction commits.
    @discardableResult
    func changing<T>(_ body: () async throws -> T) async throws -> T {
        try await transaction {
            _ = try await noteChange()
            let value = try await body()
            try await announceChange()
            return value
        }
    }
}
