import Geo

/// What deleting a network removed.
public struct NetworkDeletion: Sendable, Hashable, Codable {
    public var networkId: String
    public var locationsRemoved: Int
    public var aliasesRemoved: Int

    public init(networkId: String, locationsRemoved: Int, aliasesRemoved: Int) {
        self.networkId = networkId
        self.locationsRemoved = locationsRemoved
        self.aliasesRemoved = aliasesRemoved
    }
}

/// What merging one network into another did.
public struct NetworkMerge: Sendable, Hashable, Codable {
    public var from: String
    public var into: String
    /// Locations of `from` now in `into`.
    public var moved: Int
    /// Locations of `from` dropped as near-duplicates of one `into` already had (within the import's 10 m).
    public var deduplicated: Int
    /// Moved locations whose id `into` already used elsewhere: their external id is prefixed with `from:`.
    public var renamed: Int
    /// The spellings that resolve to `into` now: `from`'s id, display name and aliases.
    public var aliases: [String]

    public init(from: String, into: String, moved: Int, deduplicated: Int, renamed: Int, aliases: [String]) {
        self.from = from
        self.into = into
        self.moved = moved
        self.deduplicated = deduplicated
        self.renamed = renamed
        self.aliases = aliases
    }
}

extension LocationStore {
    /// Merges network `from` into `into` in one transaction: `from`'s locations move to `into` (re-keyed
    /// `loc_<into>_<external id>`; one within `duplicateRadiusMeters` of an `into` location of its own is a
    /// near-duplicate and goes), `from` is deleted, and its id, display name and aliases become aliases of `into`, so
    /// that imports and `user_networks` naming it reach `into`.
    public func mergeNetwork(_ from: String, into: String, duplicateRadiusMeters: Double = 10) async throws -> NetworkMerge {
        guard from != into else { throw StoreError.invalidArgument("a network cannot be merged into itself ('\(from)')") }
        return try await transaction {
            guard let source = try await network(id: from) else { throw StoreError.unknownNetwork(from) }
            guard try await network(id: into) != nil else { throw StoreError.unknownNetwork(into) }
            let aliases = try await networks().first { $0.network.id == from }?.aliases ?? []
            let staying = try await locations(networkId: into)
            var grid = NearDuplicateGrid(radiusMeters: duplicateRadiusMeters)
            var taken = Set<String>()
            for l in staying {
                grid.insert(network: into, coordinate: l.coordinate, id: l.id, line: 0, file: 0)
                taken.insert(l.externalId)
            }
            var dropping: [String] = []
            var renaming: [String: String] = [:]
            for l in try await locations(networkId: from) {
                if !grid.neighbours(network: into, coordinate: l.coordinate, excludingId: "", limit: 1).isEmpty {
                    dropping.append(l.id)
                    continue
                }
                // Prefixed with `from:` where `into` has the id; again, should `into` have that too.
                var external = l.externalId
                while taken.contains(external) { external = "\(from):\(external)" }
                if external != l.externalId { renaming[l.id] = external }
                taken.insert(external)
            }
            let moved = try await moveLocations(from: from, into: into, dropping: dropping, renaming: renaming)
            _ = try await deleteNetwork(id: from)
            let spellings = [from, source.name] + aliases
            for spelling in spellings where !Network.aliasKey(spelling).isEmpty { try await addAlias(spelling, networkId: into) }
            return NetworkMerge(
                from: from, into: into, moved: moved, deduplicated: dropping.count, renamed: renaming.count, aliases: spellings)
        }
    }
}
