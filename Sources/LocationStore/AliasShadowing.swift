extension LocationStore {
    /// `addAlias` as an admin asks for it (the API, `oncue networks alias`): refused with `StoreError.conflict` when the
    /// alias spells another network's id, which it would shadow, since a spelling's alias is looked up before network
    /// ids. Imports add aliases through `addAlias` itself: they only name a network that no id already spells, and
    /// reading every network's id for each of their aliases would cost an import of thousands of brands minutes.
    public func addAdminAlias(_ alias: String, networkId: String) async throws {
        let ids = try await networks().map(\.network.id)
        if let shadowing = Network.aliasShadowing(alias, networkId: networkId, among: ids) { throw StoreError.conflict(shadowing) }
        try await addAlias(alias, networkId: networkId)
    }
}
