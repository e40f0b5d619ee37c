/// Brand networks whose id is in another script move to the brand's ASCII id.
///
/// Until the brand catalogue named each brand in English or Latin script, an import named a brand network after the
/// catalogue's display name, which for some brands was one country's entry: Starbucks became `старбакс`, Baskin-Robbins
/// `31冰淇淋`. Ids travel into every region, log line and wallet, so a store opened for writing moves each such network
/// (one with a non-ASCII id and a Wikidata id the catalogue knows) to `Network.asciiSlug` of the brand's name, by the
/// same merge an admin makes: its locations move (`loc_<new id>_<external id>`), and its old id, display name and
/// aliases become aliases of the new network — a `user_networks` or an import naming `старбакс` still finds it, and
/// `location(resolving:)` finds a location by its old id.
extension LocationStore {
    package func rekeyBrandNetworks(catalogue: BrandCatalogue = .standard) async throws -> [NetworkMerge] {
        var merges: [NetworkMerge] = []
        for (id, wikidata) in try await brandNetworkIds() where !id.unicodeScalars.allSatisfy(\.isASCII) {
            guard let brand = catalogue.brand(wikidata: wikidata) else { continue }
            let target = Network.asciiSlug(brand.name)
            guard !target.isEmpty, target != id, var network = try await network(id: id) else { continue }
            if let existing = try await self.network(id: target) {
                // An unrelated network under the same slug is not this brand's: leave both as they are.
                guard existing.wikidata == nil || existing.wikidata == wikidata else { continue }
            } else {
                network.id = target
                network.name = brand.name
                try await upsertNetwork(network)
            }
            do {
                merges.append(try await mergeNetwork(id, into: target))
            } catch StoreError.unknownNetwork {
                continue  // another writer opening the store at the same moment merged it first
            }
        }
        return merges
    }

    /// The location with `id`, or, when none has it, the one an old id of a re-keyed or merged network names:
    /// `loc_<old network>_<external id>` is looked up under the network the old id is now an alias of — as
    /// `<old network>:<external id>`, the id a merge gives a moved location whose id was taken, and, for a network
    /// re-keyed from another script (`rekeyBrandNetworks`), as `<external id>`. After an admin's merge that plain id
    /// may be the target's own location, so it is not guessed.
    public func location(resolving id: String) async throws -> Location? {
        if let found = try await location(id: id) { return found }
        guard id.hasPrefix("loc_") else { return nil }
        let rest = id.dropFirst(4)
        // A network id is a slug (letters, digits, '-'): the first '_' ends it.
        guard let underscore = rest.firstIndex(of: "_") else { return nil }
        let old = String(rest[..<underscore])
        let external = String(rest[rest.index(after: underscore)...])
        guard let current = try await resolveNetwork(old), current != old else { return nil }
        if let moved = try await location(id: Location.makeId(networkId: current, externalId: "\(old):\(external)")) { return moved }
        guard !old.unicodeScalars.allSatisfy(\.isASCII) else { return nil }
        return try await location(id: Location.makeId(networkId: current, externalId: external))
    }
}
