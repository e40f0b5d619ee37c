import Foundation

/// A structured address as a Nominatim-compatible `/search` takes it, from a row's mapped columns.
package struct AddressQuery: Sendable, Hashable {
    /// The place's own name, searched as Nominatim's `amenity`: a shop mapped at that address is found itself, not the
    /// building's address point, which in a large building can stand 50–100 m away.
    package var amenity: String?
    package var street: String?
    package var city: String?
    package var state: String?
    package var postalCode: String?
    package var country: String?

    package init(
        amenity: String? = nil, street: String? = nil, city: String? = nil, state: String? = nil,
        postalCode: String? = nil, country: String? = nil
    ) {
        func clean(_ s: String?) -> String? {
            guard let s else { return nil }
            let collapsed = s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            return collapsed.isEmpty ? nil : collapsed
        }
        self.amenity = clean(amenity)
        self.street = clean(street)
        self.city = clean(city)
        self.state = clean(state)
        self.postalCode = clean(postalCode)
        self.country = clean(country)
    }

    /// Whether there is enough to ask for: a street, or at least a city or postcode (which only ever answers an area).
    package var isEmpty: Bool { street == nil && city == nil && postalCode == nil }

    /// The cache key: every part folded (case and width; diacritics kept, since they tell streets apart) and spaced
    /// alike, so that two spellings of one address that the service would answer alike share one entry.
    package var cacheKey: String {
        let address = [street, city, state, postalCode, country].map { part in
            (part ?? "").folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
        }.joined(separator: "|")
        guard let amenity else { return address }
        return "amenity=" + amenity.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil) + "|" + address
    }

    /// The same address without the place's name: what to ask when the name finds nothing.
    package var withoutAmenity: AddressQuery {
        var plain = self
        plain.amenity = nil
        return plain
    }

    /// A one-line address and no city or postcode column ("346 W Magnolia Ave Auburn, AL 36832 US"): a structured
    /// search would take the whole line for a street and find nothing, so it goes as a free-form `q`.
    package var isFreeForm: Bool { city == nil && postalCode == nil && street?.contains(",") == true }

    /// The query items of a search, in a fixed order: structured, or free-form for a one-line address.
    var queryItems: [URLQueryItem] {
        if isFreeForm {
            let line = [amenity, street, state, country].compactMap { $0 }.joined(separator: ", ")
            return [URLQueryItem(name: "q", value: line)]
        }
        var items: [URLQueryItem] = []
        if let amenity { items.append(URLQueryItem(name: "amenity", value: amenity)) }
        if let street { items.append(URLQueryItem(name: "street", value: street)) }
        if let city { items.append(URLQueryItem(name: "city", value: city)) }
        if let state { items.append(URLQueryItem(name: "state", value: state)) }
        if let postalCode { items.append(URLQueryItem(name: "postalcode", value: postalCode)) }
        if let country { items.append(URLQueryItem(name: "country", value: country)) }
        return items
    }

    /// One line for messages: the parts that are set, comma separated.
    package var oneLine: String {
        [amenity, street, postalCode.map { p in city.map { "\(p) \($0)" } ?? p } ?? city, state, country]
            .compactMap { $0 }.joined(separator: ", ")
    }
}
