import LocationStore

extension SQLiteLocationStore {
    public func networks() throws(StoreError) -> [NetworkSummary] { try networks(counted: true) }

    /// Every network with its aliases; with its location count when `counted` (a scan of an index of every location:
    /// a reader of changes takes the counts from its index instead).
    func networks(counted: Bool) throws(StoreError) -> [NetworkSummary] {
        var aliases: [String: [String]] = [:]
        let a = try db.statement("SELECT network_id, alias FROM network_aliases ORDER BY network_id, alias")
        while try a.step() { aliases[a.text(0), default: []].append(a.text(1)) }
        let count = counted ? "(SELECT count(*) FROM locations l WHERE l.network_id = n.id)" : "0"
        let s = try db.statement(
            """
            SELECT n.id, n.name, n.category, n.is_large_area, n.default_radius_m, n.wikidata, \(count)
            FROM networks n ORDER BY n.id
            """)
        var result: [NetworkSummary] = []
        while try s.step() {
            let network = Self.readNetwork(s)
            result.append(NetworkSummary(network: network, locationCount: Int(s.int64(6)), aliases: aliases[network.id] ?? []))
        }
        return result
    }

    public func brandNetworkIds() throws(StoreError) -> [(id: String, wikidata: String)] {
        let s = try db.statement("SELECT id, wikidata FROM networks WHERE wikidata IS NOT NULL ORDER BY id")
        var out: [(id: String, wikidata: String)] = []
        while try s.step() { out.append((s.text(0), s.text(1))) }
        return out
    }

    public func network(id: String) throws(StoreError) -> Network? {
        let s = try db.statement("SELECT id, name, category, is_large_area, default_radius_m, wikidata FROM networks WHERE id = ?1")
        s.bind(1, id)
        return try s.step() ? Self.readNetwork(s) : nil
    }

    static func readNetwork(_ s: SQLiteStatement) -> Network {
        Network(
            id: s.text(0), name: s.text(1), category: s.optionalText(2), isLargeArea: s.int64(3) != 0,
            defaultRadiusMeters: s.optionalDouble(4), wikidata: s.optionalText(5))
    }

    public func upsertNetwork(_ network: Network) throws {
        guard !network.id.isEmpty else { throw StoreError.invalidArgument("a network needs a non-empty id") }
        if let r = network.defaultRadiusMeters, !(r > 0 && r.isFinite) {
            throw StoreError.invalidArgument("default radius must be a positive number of metres, got \(r)")
        }
        try writeTransaction {
            let before = try self.network(id: network.id)
            guard before != network else { return }
            try db.noteChange()
            try writeNetwork(network)
            // A network's name, size class and default radius are part of what the index serves for each of its
            // locations (a location without a name shows the network's; radii follow the settings): they changed.
            if let before, before.servesDifferently(from: network) {
                let touched = try db.statement(
                    "UPDATE locations SET change_version = \(SQLiteSchema.currentChangeVersion) WHERE network_id = ?1")
                touched.bind(1, network.id)
                try touched.step()
            }
        }
    }

    private func writeNetwork(_ network: Network) throws(StoreError) {
        let s = try db.statement(
            """
            INSERT INTO networks (id, name, category, is_large_area, default_radius_m, created_at, updated_at, wikidata)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7)
            ON CONFLICT(id) DO UPDATE SET name = excluded.name, category = excluded.category,
                is_large_area = excluded.is_large_area, default_radius_m = excluded.default_radius_m,
                wikidata = excluded.wikidata, updated_at = excluded.updated_at
            WHERE name IS NOT excluded.name OR category IS NOT excluded.category
               OR is_large_area IS NOT excluded.is_large_area OR default_radius_m IS NOT excluded.default_radius_m
               OR wikidata IS NOT excluded.wikidata
            """)
        s.bind(1, network.id)
        s.bind(2, network.name)
        s.bind(3, network.category)
        s.bind(4, network.isLargeArea ? 1 : 0)
        s.bind(5, network.defaultRadiusMeters)
        s.bind(6, Self.timestamp())
        s.bind(7, network.wikidata)
        try s.step()
    }

    public func addAlias(_ alias: String, networkId: String) throws(StoreError) {
        let key = Network.aliasKey(alias)
        guard !key.isEmpty else { throw .invalidArgument("alias '\(alias)' has no letters or digits") }
        guard try network(id: networkId) != nil else { throw .unknownNetwork(networkId) }
        try db.noteChange()
        let s = try db.statement(
            """
            INSERT INTO network_aliases (alias_key, alias, network_id) VALUES (?1, ?2, ?3)
            ON CONFLICT(alias_key) DO UPDATE SET alias = excluded.alias, network_id = excluded.network_id
            """)
        s.bind(1, key)
        s.bind(2, alias)
        s.bind(3, networkId)
        try s.step()
    }

    public func resolveNetwork(_ nameOrAlias: String) throws(StoreError) -> String? {
        if try network(id: nameOrAlias) != nil { return nameOrAlias }
        let s = try db.statement("SELECT network_id FROM network_aliases WHERE alias_key = ?1")
        s.bind(1, Network.aliasKey(nameOrAlias))
        return try s.step() ? s.text(0) : nil
    }
}
