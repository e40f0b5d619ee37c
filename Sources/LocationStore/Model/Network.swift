import Foundation

/// A chain or system whose locations share a loyalty card (e.g. `costco`, a library system).
public struct Network: Sendable, Hashable, Codable {
    /// Slug, e.g. `costco`, `whole-foods`, `ny0778`.
    public var id: String
    public var name: String
    /// grocery, wholesale, coffee, library, pharmacy, fast-food, theme-park, airport, … (free text; see the radius and boost tables).
    public var category: String?
    /// Venues such as theme parks and airports get large (500–2000 m) regions.
    public var isLargeArea: Bool
    /// A radius for every location of the network, overriding the density tiers.
    public var defaultRadiusMeters: Double?
    /// The brand's Wikidata id (`Q38076`), when the network is a brand the catalogue knows.
    public var wikidata: String?

    public init(
        id: String, name: String, category: String? = nil, isLargeArea: Bool = false, defaultRadiusMeters: Double? = nil,
        wikidata: String? = nil
    ) {
        self.id = id
        self.name = name
        self.category = category
        self.isLargeArea = isLargeArea
        self.defaultRadiusMeters = defaultRadiusMeters
        self.wikidata = wikidata
    }
}

/// A network with its number of locations, as listed by `networks()`.
public struct NetworkSummary: Sendable, Hashable, Codable {
    public var network: Network
    public var locationCount: Int
    public var aliases: [String]

    public init(network: Network, locationCount: Int, aliases: [String] = []) {
        self.network = network
        self.locationCount = locationCount
        self.aliases = aliases
    }
}

extension Network {
    /// The canonical slug of a free-text name: lower-case letters and digits joined by single dashes, accents folded
    /// ("Chick-fil-A" → "chick-fil-a", "SONIC Drive In" → "sonic-drive-in", "Fazer Café" → "fazer-cafe").
    public static func slug(_ name: String) -> String {
        var out: [Character] = []
        var pendingDash = false
        // Accents fold to their letter ("Fazer Café" → "fazer-cafe"); letters of other scripts are kept as they are
        // ("スターバックス"), since dropping them would leave a brand without an id.
        let folded = name.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
        for scalar in folded.lowercased().unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                if pendingDash && !out.isEmpty { out.append("-") }
                pendingDash = false
                out.append(Character(scalar))
            } else if scalar == "'" || scalar == "’" {
                continue  // "Arby's" → "arbys"
            } else {
                pendingDash = true
            }
        }
        return String(out)
    }

    /// The slug of `name` in ASCII: a name in another script is transliterated to Latin first ("Старбакс" →
    /// "starbaks", "星巴克" → "xing-ba-ke"), and what no transliteration reaches is dropped. A brand's network id is
    /// this slug of its English or Latin-script name, so that ids read the same in every log, region and wallet
    /// whatever language the catalogue's entry for one country used.
    public static func asciiSlug(_ name: String) -> String {
        let latin = name.unicodeScalars.allSatisfy(\.isASCII) ? name : (name.applyingTransform(.toLatin, reverse: false) ?? name)
        var out = ""
        var pendingDash = false
        for scalar in slug(latin).unicodeScalars {
            if scalar == "-" || !scalar.isASCII {
                pendingDash = pendingDash || scalar == "-"
                continue
            }
            if pendingDash && !out.isEmpty { out.append("-") }
            pendingDash = false
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// The key under which a brand alias is stored: the slug without dashes, so that
    /// "Sonic Drive-In", "SONIC Drive In" and "sonic drivein" are one alias.
    /// A spelling without letters or digits ("★") is its own key, lower-cased and trimmed, so that it can still be
    /// an alias.
    public static func aliasKey(_ name: String) -> String {
        let key = slug(name).replacingOccurrences(of: "-", with: "")
        return key.isEmpty ? name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() : key
    }
}

extension Network {
    /// Why `alias` may not be given to `networkId`: its key is another network's id read as a spelling, which the alias
    /// would then shadow (an alias's key is looked up before network ids'); nil when it may.
    public static func aliasShadowing(_ alias: String, networkId: String, among ids: some Sequence<String>) -> String? {
        let key = aliasKey(alias)
        guard let other = ids.first(where: { $0 != networkId && aliasKey($0) == key }) else { return nil }
        return "the alias '\(alias)' spells the id of network '\(other)', which it would shadow; merge the two networks instead"
    }
}

extension Network {
    /// Whether the index would serve this network's locations differently after it became `other`: their names (a
    /// location without one shows its network's) or their radii (size class, default radius). Its category and
    /// Wikidata id are read per network, not per location.
    public func servesDifferently(from other: Network) -> Bool {
        name != other.name || isLargeArea != other.isLargeArea || defaultRadiusMeters != other.defaultRadiusMeters
    }
}
