import Foundation

/// The chain brands the name-suggestion-index knows, by Wikidata id and by every name they go by, with where they
/// operate: the import resolves a brand column's spellings ("McDonalds", "Mc Donald's", "McDonald's") and a
/// `brand:wikidata` tag to one network through it. Built by `scripts/make-brand-catalogue.py` into
/// `datasets/brands/brands.tsv` (BSD-3-Clause, see its SOURCE.md) and compiled in (`Generated/BrandCatalogue+Data.swift`).
/// The engine reads it too: a card network named by any of its brand's names finds the network (`LocationIndex`).
package struct BrandCatalogue: Sendable {
    package struct Brand: Sendable, Equatable {
        package var wikidata: String
        /// How the brand writes its name ("Target"), the name of the network it makes.
        package var name: String
        package var names: [String]
        /// ISO 3166-1 alpha-2 codes (lower case), "001" for the world, or M49 region codes.
        package var include: [String]
        package var exclude: [String]
        /// The brand's name by language (`brand:xx` tags: "ru" → "Старбакс"), for a display name in the data's
        /// language; `name` is the English or Latin-script one.
        package var byLanguage: [String: String] = [:]
    }

    package let brands: [Brand]
    private let byWikidata: [String: Int]
    /// Brands by `key(name)` of each of their names.
    private let byName: [String: [Int]]

    package static let standard = BrandCatalogue(tsv: BrandCatalogue.embeddedTSV)

    /// Reads the catalogue's lines (`#` lines are comments); a malformed line is skipped.
    package init(tsv: String) {
        var brands: [Brand] = []
        var byWikidata: [String: Int] = [:]
        var byName: [String: [Int]] = [:]
        for line in tsv.split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard f.count >= 5, !f[0].isEmpty, !f[1].isEmpty else { continue }
            var byLanguage: [String: String] = [:]
            if f.count >= 6 {
                for pair in f[5].split(separator: "|") {
                    guard let eq = pair.firstIndex(of: "=") else { continue }
                    byLanguage[String(pair[..<eq])] = String(pair[pair.index(after: eq)...])
                }
            }
            let brand = Brand(
                wikidata: String(f[0]), name: String(f[1]), names: f[2].split(separator: "|").map(String.init),
                include: f[3].split(separator: ",").map(String.init), exclude: f[4].split(separator: ",").map(String.init),
                byLanguage: byLanguage)
            let index = brands.count
            brands.append(brand)
            byWikidata[brand.wikidata] = index
            for key in Set(([brand.name] + brand.names).map(Self.key)) where !key.isEmpty { byName[key, default: []].append(index) }
        }
        self.brands = brands
        self.byWikidata = byWikidata
        self.byName = byName
    }

    /// How names are compared: case, accents, spaces and punctuation do not matter ("Mc Donald's" = "McDonalds").
    static func key(_ name: String) -> String {
        // Folding accents is most of the cost of reading the catalogue; most names have none to fold.
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return TextKey.lettersAndDigits(name) }
        return TextKey.lettersAndDigits(name.folding(options: .diacriticInsensitive, locale: nil))
    }

    package func brand(wikidata: String) -> Brand? {
        byWikidata[wikidata.trimmingCharacters(in: .whitespaces)].map { brands[$0] }
    }

    /// The brand a name means where the row stands: among the brands of that name, the one that operates in `country`
    /// (named there rather than worldwide), else nil when none does or two are equally likely. Without a country, a
    /// name only one brand has.
    package func brand(named name: String, country: String?) -> Brand? {
        guard let candidates = byName[Self.key(name)] else { return nil }
        var best: (score: Int, index: Int)?
        var tied = false
        for index in candidates {
            guard let score = Self.score(brands[index], country: country) else { continue }
            if best == nil || score > best!.score {
                best = (score, index)
                tied = false
            } else if score == best!.score {
                tied = true
            }
        }
        guard let best, !tied else { return nil }
        return brands[best.index]
    }

    /// 3: the country is named; 2: the brand is worldwide; 1: it names regions this table cannot place the country in,
    /// or the country is unknown; nil: it does not operate there.
    static func score(_ brand: Brand, country: String?) -> Int? {
        guard let country = country?.lowercased(), country.count == 2 else { return 1 }
        if brand.include.contains(country) { return 3 }
        if brand.exclude.contains(country) { return nil }
        if brand.include.contains("001") || brand.include.isEmpty { return 2 }
        return brand.include.contains { $0.first?.isNumber == true } ? 1 : nil
    }
}
