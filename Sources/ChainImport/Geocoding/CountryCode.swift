import Foundation

/// ISO 3166-1 alpha-2 codes for what a country column may hold: a code, or the country's name in English.
enum CountryCode {
    private static let byName: [String: String] = {
        var names: [String: String] = [:]
        let english = Locale(identifier: "en_US")
        for region in Locale.Region.isoRegions where region.identifier.count == 2 {
            let code = region.identifier.lowercased()
            if let name = english.localizedString(forRegionCode: region.identifier) { names[key(name)] = code }
        }
        // Common spellings that are not the CLDR name.
        for (name, code) in [
            ("usa", "us"), ("united states of america", "us"), ("uk", "gb"), ("great britain", "gb"),
            ("england", "gb"), ("suomi", "fi"), ("deutschland", "de"), ("россия", "ru"), ("中国", "cn"),
        ] {
            names[key(name)] = code
        }
        return names
    }()

    private static func key(_ s: String) -> String {
        s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).trimmingCharacters(in: .whitespaces)
    }

    /// The lower-case alpha-2 code, or nil when the text names no country this table knows (no check is made then).
    static func iso2(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        let k = key(text)
        if k.count == 2, k.allSatisfy({ $0.isASCII && $0.isLetter }) { return k }
        return byName[k]
    }
}
