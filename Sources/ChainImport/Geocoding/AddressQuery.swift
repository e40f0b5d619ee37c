import Foundation

/// A structured address as a Nominatim-compatible `/search` takes it, from a row's mapped columns.
public struct AddressQuery: Sendable, Hashable {
    public var street: String?
    public var city: String?
    public var state: String?
    public var postalCode: String?
    public var country: String?

    public init(street: String? = nil, city: String? = nil, state: String? = nil, postalCode: String? = nil,
                country: String? = nil) {
        func clean(_ s: String?) -> String? {
            guard let s else { return nil }
            let collapsed = s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            return collapsed.isEmpty ? nil : collapsed
        }
        self.street = clean(street)
        self.city = clean(city)
        self.state = clean(state)
        self.postalCode = clean(postalCode)
        self.country = clean(country)
    }

    /// Whether there is enough to ask for: a street, or at least a city or postcode (which only ever answers an area).
    public var isEmpty: Bool { street == nil && city == nil && postalCode == nil }

    /// The cache key: every part folded (case and width; diacritics kept, since they tell streets apart) and spaced
    /// alike, so that two spellings of one address that the service would answer alike share one entry.
    public var cacheKey: String {
        [street, city, state, postalCode, country].map { part in
            (part ?? "").folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
        }.joined(separator: "|")
    }

    /// The query items of a structured search, in a fixed order.
    var queryItems: [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let street { items.append(URLQueryItem(name: "street", value: street)) }
        if let city { items.append(URLQueryItem(name: "city", value: city)) }
        if let state { items.append(URLQueryItem(name: "state", value: state)) }
        if let postalCode { items.append(URLQueryItem(name: "postalcode", value: postalCode)) }
        if let country { items.append(URLQueryItem(name: "country", value: country)) }
        return items
    }

    /// One line for messages: the parts that are set, comma separated.
    public var oneLine: String {
        [street, postalCode.map { p in city.map { "\(p) \($0)" } ?? p } ?? city, state, country]
            .compactMap { $0 }.joined(separator: ", ")
    }
}
