import Foundation
import LocationStore

/// Turns the network value of a row (an id, a brand spelling, a library system key) into a
/// network id, creating networks on first sight unless only known ones are allowed.
///
/// A spelling resolves through the store's aliases, which ignore case, spaces and punctuation
/// ("SONIC Drive In" = "Sonic Drive-In"); a new network is created under the spelling's slug and
/// the spelling becomes its alias. A spelling the store does not know but the brand catalogue does ("Mc Donald's",
/// "McDonalds") resolves to the brand's network (`mcdonalds`, named "McDonald's", with its Wikidata id), created on first
/// sight, so a chain's spellings are one network; so does a row's `brand:wikidata`. The store's own ids and aliases
/// come first: an admin's alias always wins. Spellings neither knows that differ in words ("Sonic") need an explicit
/// alias (`oncue networks alias sonic-drive-in Sonic`).
package final class NetworkResolver {
    private let store: any NetworkDirectory
    private let category: String?
    private let onlyKnown: Bool
    let catalogue: BrandCatalogue?
    /// The language of a created brand network's display name (`ImportOptions.brandLanguage`).
    private let brandLanguage: String
    /// The import names networks from a column of its own (`--network-name-column`).
    private let namesFromColumn: Bool
    private var cache: [String: String] = [:]
    package private(set) var created: [String] = []
    /// Networks created here whose name came from a row that was not the preferred naming row.
    private var provisionallyNamed = Set<String>()

    enum Failure: Error {
        case missing
        case unknown(String)
        /// A new network's id (the value's slug) would be longer than the store keeps.
        case idTooLong(slug: String)
        /// The value would create a network that could pass for another (see `NetworkText`).
        case confusable(String)
    }

    package init(
        store: any NetworkDirectory, category: String?, onlyKnown: Bool, catalogue: BrandCatalogue? = nil, brandLanguage: String = "en",
        namesFromColumn: Bool = false
    ) {
        self.namesFromColumn = namesFromColumn
        self.store = store
        self.category = category
        self.onlyKnown = onlyKnown
        self.catalogue = catalogue
        self.brandLanguage = brandLanguage
    }

    /// `country` (ISO alpha-2) picks among brands of one name; `wikidata` (a row's `brand_wikidata`) names the brand
    /// outright when the catalogue knows it.
    func resolve(
        _ value: String, displayName: @autoclosure () -> String?, country: String? = nil, wikidata: String? = nil
    ) throws -> Result<String, Failure> {
        let key = country.map { value + "\u{0}" + $0 } ?? value
        if let hit = cache[key] { return .success(hit) }
        let trimmed = String(value.trimmedOfWhitespace)
        guard !trimmed.isEmpty else { return .failure(.missing) }
        if let id = try store.resolveNetwork(trimmed) {
            cache[key] = id
            return .success(id)
        }
        // A row's brand_wikidata, a value that is a Wikidata id (`--network Q1046951`), or a name the catalogue knows there.
        if let catalogue,
            let brand = wikidata.flatMap(catalogue.brand(wikidata:)) ?? catalogue.brand(wikidata: trimmed)
                ?? catalogue.brand(named: trimmed, country: country)
        {
            let result = try network(of: brand, spelling: trimmed, displayName: displayName())
            if case .success(let id) = result { cache[key] = id }
            return result
        }
        // Only an alias can name a network by a spelling without letters or digits ("★"): a new one needs a slug.
        let slug = Network.slug(trimmed)
        guard !slug.isEmpty else { return .failure(.missing) }
        if try store.network(id: slug) == nil {
            if onlyKnown { return .failure(.unknown(trimmed)) }
            if FieldLimits.exceeds(slug, FieldLimits.networkId) { return .failure(.idTooLong(slug: slug)) }
            if let existing = try lookAlike(of: slug) {
                return .failure(
                    .confusable(
                        "'\(trimmed.clipped())' would be network '\(slug)', which looks like the existing '\(existing)'; "
                            + "if it means that one, make it an alias: oncue networks alias \(existing) '\(trimmed.clipped())'"))
            }
            if let problem = NetworkText.problem(trimmed) { return .failure(.confusable("'\(trimmed.clipped())' \(problem)")) }
            let name = displayName().flatMap { $0.isEmpty ? nil : $0 } ?? trimmed
            try store.upsertNetwork(Network(id: slug, name: name, category: category))
            created.append(slug)
            provisionallyNamed.insert(slug)
            skeletons?[NetworkText.skeleton(slug)] = slug
        }
        try store.addAlias(trimmed, networkId: slug)
        cache[value] = slug
        return .success(slug)
    }

    /// The network of a catalogue brand, under the ASCII slug of its English or Latin-script name (`starbucks`, never
    /// `старбакс`): found, or created with its name in `brandLanguage` and its Wikidata id; the spelling that led to
    /// it, and the brand's English name, become its aliases.
    private func network(of brand: BrandCatalogue.Brand, spelling: String, displayName: String?) throws -> Result<String, Failure> {
        let slug = Network.asciiSlug(brand.name)
        guard !slug.isEmpty else { return .failure(.missing) }
        if var existing = try store.network(id: slug) {
            // A network made before the catalogue, or by an admin, learns which brand it is.
            if existing.wikidata == nil {
                existing.wikidata = brand.wikidata
                try store.upsertNetwork(existing)
            }
        } else {
            if onlyKnown { return .failure(.unknown(spelling)) }
            if FieldLimits.exceeds(slug, FieldLimits.networkId) { return .failure(.idTooLong(slug: slug)) }
            // A network name column the import was given names it; else the brand's name in the import's language.
            let given = namesFromColumn ? displayName.flatMap { $0.isEmpty ? nil : $0 } : nil
            let name = given ?? (brandLanguage == "en" ? nil : brand.byLanguage[brandLanguage]) ?? brand.name
            try store.upsertNetwork(Network(id: slug, name: name, category: category, wikidata: brand.wikidata))
            created.append(slug)
            skeletons?[NetworkText.skeleton(slug)] = slug
            // The brand's names in other languages resolve to it too, where no other network has them.
            for other in Set([brand.name] + brand.byLanguage.values).sorted() where other != name {
                if try store.resolveNetwork(other) == nil { try store.addAlias(other, networkId: slug) }
            }
        }
        try store.addAlias(spelling, networkId: slug)
        return .success(slug)
    }

    /// Skeletons of the networks' ids, read at the first new network (most imports create none or few).
    private var skeletons: [String: String]?

    private func lookAlike(of slug: String) throws -> String? {
        if skeletons == nil {
            var map: [String: String] = [:]
            for id in try store.networkIds() { map[NetworkText.skeleton(id)] = id }
            skeletons = map
        }
        return skeletons?[NetworkText.skeleton(slug)].flatMap { $0 == slug ? nil : $0 }
    }

    /// Renames a network this import created, once, from the row preferred for naming it.
    func rename(_ id: String, to name: String) throws {
        guard provisionallyNamed.remove(id) != nil, var network = try store.network(id: id), network.name != name else { return }
        network.name = name
        try store.upsertNetwork(network)
    }
}
