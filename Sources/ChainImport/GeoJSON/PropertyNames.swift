/// A feature's property names as the CSV import reads a header (`ColumnMapping.normalise`: case, spaces and
/// punctuation do not matter; `Address.Latitude` also answers to `latitude`), so a property is found for a role by the
/// names a CSV column of that role could have (`FieldRole.synonyms`, earlier names first).
struct PropertyNames {
    /// Normalised full name and normalised last dotted component of each raw name already seen.
    struct Cache {
        var names: [String: (full: String, last: String)] = [:]
        /// A file's keys are a small vocabulary; past this, a file of ever new keys stops filling the cache.
        static let limit = 4096
    }

    private var full: [String: String] = [:]
    private var last: [String: String] = [:]

    init(_ properties: [String: String], cache: inout Cache) {
        for key in properties.keys {
            let names: (full: String, last: String)
            if let known = cache.names[key] {
                names = known
            } else {
                names = (ColumnMapping.normalise(key), ColumnMapping.normalise(key.split(separator: ".").last ?? ""))
                if cache.names.count < Cache.limit { cache.names[key] = names }
            }
            // Two keys that read alike (`Lat`, `lat`): the first in code-point order, whatever order the JSON had.
            if let other = full[names.full], other < key {} else { full[names.full] = key }
            if let other = last[names.last], other < key {} else { last[names.last] = key }
        }
    }

    /// The property a CSV column of `role` would be, by the header rule's order: every synonym against the full
    /// names, then against the last dotted components. On an OpenStreetMap element, names whose OSM tag means
    /// something else are skipped (`osmMeanings`).
    func property(_ role: FieldRole, osmElement: Bool) -> String? {
        let synonyms = osmElement ? role.synonyms.filter { !Self.osmMeanings.contains($0) } : role.synonyms
        return synonyms.lazy.compactMap { full[$0] }.first ?? synonyms.lazy.compactMap { last[$0] }.first
    }

    /// OSM tags spelled as a CSV column but meaning another thing: `wikidata` is the element's own item (a flagship
    /// store, a landmark), not its brand's; `network` a transit or ATM network (`Cirrus`), not a chain.
    static let osmMeanings: Set<String> = ["wikidata", "network"]
}
