import LocationStore

extension LocationIndex {
    /// The network a request names by `spelling`, resolved as the admin side resolves it: the id itself, else by its
    /// alias key (case, spaces and punctuation ignored) an alias of the store, a network's id, a network's display
    /// name, or for a brand's network (one with a Wikidata id) any name the brand catalogue gives that brand, or the id
    /// itself, in that order of precedence. Nil: no network is spelled so.
    func networkNumber(named spelling: String) -> UInt32? {
        if let k = networkNumber[spelling] { return k }
        let key = Network.aliasKey(spelling)
        return key.isEmpty ? nil : spellings[key]
    }

    /// Alias keys to network numbers, the lower precedence written first so that the higher overwrites it.
    /// Networks that are not in `numbers` (deleted since a full build, whose number an overlay keeps) have none.
    static func spellings(
        networks all: [Network], numbers: [String: UInt32], aliases: [(alias: String, networkId: String)]
    )
        -> [String: UInt32]
    {
        let networks = all.enumerated().filter { numbers[$0.element.id] == UInt32($0.offset) }.map { (offset: $0.offset, element: $0.element) }
        var out: [String: UInt32] = [:]
        for (k, n) in networks {
            guard let wikidata = n.wikidata, let brand = BrandCatalogue.standard.brand(wikidata: wikidata) else { continue }
            for name in [wikidata] + brand.names { out[Network.aliasKey(name)] = UInt32(k) }
        }
        for (k, n) in networks { out[Network.aliasKey(n.name)] = UInt32(k) }
        for (k, n) in networks { out[Network.aliasKey(n.id)] = UInt32(k) }
        for a in aliases { if let k = numbers[a.networkId] { out[Network.aliasKey(a.alias)] = k } }
        out[""] = nil
        return out
    }
}
