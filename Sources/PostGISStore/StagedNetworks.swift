import LocationStore

/// Networks and aliases as a PostGIS store had them when the import began, plus what the import changes, to be
/// written in its transaction before its rows.
final class StagedNetworks: NetworkDirectory {
    private var networks: [String: Network]
    private var aliases: [String: String]
    /// Created or changed networks by id, and aliases written by this import by alias key (the last spelling wins, as
    /// in the SQLite store).
    private(set) var changedNetworks: [String: Network] = [:]
    private(set) var changedAliases: [String: (alias: String, networkId: String)] = [:]
    /// Networks that held locations when the import began; the others are new to this import's rows.
    let occupied: Set<String>
    /// Networks changed since `takePending()` last ran.
    private var pending = Set<String>()

    init(networks: [NetworkSummary]) {
        occupied = Set(networks.filter { $0.locationCount > 0 }.map(\.network.id))
        self.networks = Dictionary(uniqueKeysWithValues: networks.map { ($0.network.id, $0.network) })
        var aliases: [String: String] = [:]
        for summary in networks { for alias in summary.aliases { aliases[Network.aliasKey(alias)] = summary.network.id } }
        self.aliases = aliases
    }

    func network(id: String) -> Network? { networks[id] }

    func networkIds() -> [String] { Array(networks.keys) }

    func resolveNetwork(_ nameOrAlias: String) -> String? {
        networks[nameOrAlias] != nil ? nameOrAlias : aliases[Network.aliasKey(nameOrAlias)]
    }

    func upsertNetwork(_ network: Network) {
        networks[network.id] = network
        changedNetworks[network.id] = network
        pending.insert(network.id)
    }

    /// The networks created or changed since the last call: written before rows that refer to them.
    func takePending() -> [Network] {
        defer { pending.removeAll() }
        return pending.sorted().compactMap { networks[$0] }
    }

    func addAlias(_ alias: String, networkId: String) throws {
        let key = Network.aliasKey(alias)
        guard !key.isEmpty else { throw StoreError.invalidArgument("alias '\(alias)' has no letters or digits") }
        guard networks[networkId] != nil else { throw StoreError.unknownNetwork(networkId) }
        aliases[key] = networkId
        changedAliases[key] = (alias, networkId)
    }
}
