/// A feature's property names as the CSV import reads a header (`ColumnMapping.normalise`: case, spaces and
/// punctuation do not matter; `Address.Latitude` also answers to `latitude`), so a property is found for a role by the
/// names a CSV column of that role could have (`FieldRole.synonyms`, earlier names first).
///
/// What each raw name can fill is worked out once per name and cached: a file repeats its keys, and building lookup
/// tables per feature cost a twelfth of a GeoJSON import.
struct PropertyNames {
    /// A role a property name can fill, and how well: its synonym's place, the last dotted component's after every
    /// full name's (the header rule's order).
    struct Match {
        var role: Int
        var rank: Int
        /// The name is an OSM tag that means something else on an OSM element (`osmMeanings`).
        var osmMeaning: Bool
    }

    struct Cache {
        var matches: [String: [Match]] = [:]
        /// A file's keys are a small vocabulary; past this, a file of ever new keys stops filling the cache.
        static let limit = 4096
    }

    /// Per role (`FieldRole.ordinal`): the best property of any name, and the best whose name keeps no OSM meaning.
    private var best: [(rank: Int, key: String)?]
    private var bestOutsideOSM: [(rank: Int, key: String)?]

    init(_ properties: [String: String], cache: inout Cache) {
        best = Array(repeating: nil, count: FieldRole.allCases.count)
        bestOutsideOSM = best
        for key in properties.keys {
            let matches: [Match]
            if let known = cache.matches[key] {
                matches = known
            } else {
                matches = Self.matches(key)
                if cache.matches.count < Cache.limit { cache.matches[key] = matches }
            }
            for m in matches {
                // Two keys that read alike (`Lat`, `lat`): the first in code-point order, whatever order the JSON had.
                if Self.beats(m.rank, key, best[m.role]) { best[m.role] = (m.rank, key) }
                if !m.osmMeaning, Self.beats(m.rank, key, bestOutsideOSM[m.role]) { bestOutsideOSM[m.role] = (m.rank, key) }
            }
        }
    }

    /// The property a CSV column of `role` would be. On an OpenStreetMap element, names whose OSM tag means something
    /// else are skipped (`osmMeanings`).
    func property(_ role: FieldRole, osmElement: Bool) -> String? {
        (osmElement ? bestOutsideOSM : best)[role.ordinal]?.key
    }

    private static func beats(_ rank: Int, _ key: String, _ current: (rank: Int, key: String)?) -> Bool {
        guard let current else { return true }
        return rank < current.rank || (rank == current.rank && key < current.key)
    }

    /// Every role `key` can fill, by the header rule.
    static func matches(_ key: String) -> [Match] {
        let full = ColumnMapping.normalise(key)
        let last = ColumnMapping.normalise(key.split(separator: ".").last ?? "")
        var found: [Match] = []
        for role in FieldRole.allCases {
            let synonyms = role.synonyms
            if let i = synonyms.firstIndex(of: full) {
                found.append(Match(role: role.ordinal, rank: i, osmMeaning: osmMeanings.contains(full)))
            } else if let i = synonyms.firstIndex(of: last) {
                found.append(Match(role: role.ordinal, rank: synonyms.count + i, osmMeaning: osmMeanings.contains(last)))
            }
        }
        return found
    }

    /// OSM tags spelled as a CSV column but meaning another thing: `wikidata` is the element's own item (a flagship
    /// store, a landmark), not its brand's; `network` a transit or ATM network (`Cirrus`), not a chain.
    static let osmMeanings: Set<String> = ["wikidata", "network"]
}
