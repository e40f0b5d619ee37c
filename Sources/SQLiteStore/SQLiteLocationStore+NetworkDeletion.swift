import LocationStore

extension SQLiteLocationStore {
    public func deleteNetwork(id: String) throws -> NetworkDeletion? {
        try writeTransaction { () throws -> NetworkDeletion? in
            guard try network(id: id) != nil else { return nil }
            try db.noteChange()
            let geocoded = try db.statement(
                "DELETE FROM geocoded_locations WHERE location_id IN (SELECT id FROM locations WHERE network_id = ?1)")
            geocoded.bind(1, id)
            try geocoded.step()
            let locations = try db.statement("DELETE FROM locations WHERE network_id = ?1")
            locations.bind(1, id)
            try locations.step()
            let removed = db.changes
            let aliases = try db.statement("DELETE FROM network_aliases WHERE network_id = ?1")
            aliases.bind(1, id)
            try aliases.step()
            let aliasCount = db.changes
            let network = try db.statement("DELETE FROM networks WHERE id = ?1")
            network.bind(1, id)
            try network.step()
            return NetworkDeletion(networkId: id, locationsRemoved: removed, aliasesRemoved: aliasCount)
        }
    }

    public func locations(networkId: String) throws(StoreError) -> [Location] {
        let s = try db.statement("SELECT \(Self.locationColumns) FROM locations WHERE network_id = ?1 ORDER BY id")
        s.bind(1, networkId)
        var found: [Location] = []
        while try s.step() { found.append(Self.readLocation(s)) }
        return found
    }
}
