import Geo

/// Which values of a GeoJSON feature give each role of the import, and a feature's values laid out as one record of
/// those roles, so the checks, ids and networks of a CSV row apply to it unchanged.
///
/// By default the roles read OpenStreetMap's keys, as OpenStreetMap exports (osmium) and AllThePlaces' spiders write
/// them: `ref`, `name`, `brand`, `addr:*`; then any property named as a CSV column of the role would be
/// (`store_id`, `radius_m`, `Latitude`: `FieldRole.synonyms` under the header rule), so a file converted from a CSV
/// reads as the CSV did. The id is the OSM element (`node/123`, from osmium's `@type` and `@id`, or Overpass's `@id`) when the feature is
/// one, else `ref`, else an id-named property, else the Feature's own `id`. A point comes from the geometry; latitude
/// and longitude properties are read only for a feature without one. A mapping file's `columns` name properties
/// instead (a list joins several with `-`, as for CSV columns), and `null` switches a role off.
struct GeoJSONFields {
    enum Source: Equatable {
        /// The first of these properties the feature has.
        case first([String])
        /// These properties joined with `-` (a mapping file's composite id); absent ones are left out.
        case joined([String])
        /// `node/123`, `way/45`, `relation/6` from osmium's `@type` and `@id` properties.
        case osmElement
        /// The Feature's own `id` member.
        case featureId
        /// `addr:housenumber` and `addr:street`, in the order the country writes them.
        case streetAndNumber
        case latitude, longitude
        /// A property whose name the CSV header rule reads as a column of this role (`PropertyNames`).
        case named(FieldRole)
        /// From a Polygon's or MultiPolygon's footprint (`Footprint`).
        case footprintRadius, footprintVenueRadius

        var described: String {
            switch self {
            case .first(let keys): keys.joined(separator: " | ")
            case .joined(let keys): keys.joined(separator: " + ")
            case .osmElement: "@type/@id"
            case .featureId: "id"
            case .streetAndNumber: "addr:housenumber + addr:street"
            case .latitude: "geometry (latitude)"
            case .longitude: "geometry (longitude)"
            case .named(let role): "a property named as a \(role.rawValue) column"
            case .footprintRadius: "footprint radius"
            case .footprintVenueRadius: "footprint venue radius"
            }
        }
    }

    /// The roles read, in record order, each with the sources tried in turn.
    let roles: [(role: FieldRole, sources: [Source])]
    let mapping: ColumnMapping
    /// The property `--network-name-where` compares, kept after the roles' fields.
    let filterKey: String?
    /// The properties a mapping file's `network_patterns` are tried on, kept as the record's last fields.
    let patternKeys: [String]
    /// Property names as the header rule reads them, kept across features (a file repeats its keys).
    var propertyNames = PropertyNames.Cache()

    /// OpenStreetMap's keys first, then the CSV's column names. Where the geometry or an outline gives a value, it
    /// wins over a property only for the point: a property's `radius_m` is the file's own word and beats an outline's.
    static let defaults: [FieldRole: [Source]] = [
        .id: [.osmElement, .first(["ref"]), .named(.id), .featureId],
        .name: [.first(["name"]), .named(.name)],
        .address: [.first(["addr:full", "addr:street_address"]), .streetAndNumber, .named(.address)],
        .city: [.first(["addr:city"]), .named(.city)],
        .region: [.first(["addr:state", "addr:province"]), .named(.region)],
        .postalCode: [.first(["addr:postcode"]), .named(.postalCode)],
        .country: [.first(["addr:country"]), .named(.country)],
        .latitude: [.latitude, .named(.latitude)],
        .longitude: [.longitude, .named(.longitude)],
        .network: [.first(["brand"]), .named(.network)],
        // What `oncue export` writes beside each row's network: the name of a network this import creates.
        .networkName: [.named(.networkName)],
        .brandWikidata: [.first(["brand:wikidata"]), .named(.brandWikidata)],
        .openingHours: [.first(["opening_hours"]), .named(.openingHours)],
        .radius: [.named(.radius), .footprintRadius],
        .venueRadius: [.named(.venueRadius), .footprintVenueRadius],
    ]

    init(options: ImportOptions) {
        var sources = Self.defaults
        for (key, spec) in options.mapping?.columns ?? [:] {
            guard let role = FieldRole(rawValue: key) else { continue }
            switch spec {
            case .none: sources[role] = nil
            case .columns(let names): sources[role] = [names.count == 1 ? .first(names) : .joined(names)]
            }
        }
        if let column = options.networkColumn { sources[.network] = [.first([column])] }
        if let column = options.networkNameColumn { sources[.networkName] = [.first([column])] }
        roles = FieldRole.allCases.compactMap { role in sources[role].map { (role, $0) } }
        var headers = roles.map { $0.sources.map(\.described).joined(separator: ", then ") }
        var columns: [FieldRole: [Int]] = [:]
        for (i, entry) in roles.enumerated() { columns[entry.role] = [i] }
        filterKey = options.networkNameWhere?.column
        if let filterKey { headers.append(filterKey) }
        var patternColumns: [Int] = []
        if let patterns = options.mapping?.networkPatterns {
            patternKeys = patterns.match ?? []
            // Without `match`, the patterns are tried on the network role's value, already in the record.
            patternColumns = patterns.match == nil ? columns[.network] ?? [] : patternKeys.indices.map { headers.count + $0 }
            headers += patternKeys
        } else {
            patternKeys = []
        }
        mapping = ColumnMapping(headers: headers, columns: columns, patternColumns: patternColumns)
    }

    /// The index of the `--network-name-where` field in every record.
    var filterIndex: Int? { filterKey == nil ? nil : roles.count }

    /// The feature's values as a record with `mapping`'s columns; `number` is its place in the file (the log's line).
    mutating func record(_ feature: GeoJSONFeature, number: Int, into record: inout CSVRecord) {
        record.bytes.removeAll(keepingCapacity: true)
        record.ends.removeAll(keepingCapacity: true)
        record.line = number
        record.overlongBytes = nil
        // Worked out at the first role that reads a property by its CSV name, once per feature.
        var names: (PropertyNames, osmElement: Bool)?
        for entry in roles {
            for source in entry.sources {
                let found: String?
                if case .named(let role) = source {
                    if names == nil {
                        names = (PropertyNames(feature.properties, cache: &propertyNames), Self.value(.osmElement, of: feature) != nil)
                    }
                    found = names.flatMap { $0.0.property(role, osmElement: $0.osmElement) }.flatMap { feature.properties[$0] }
                } else {
                    found = Self.value(source, of: feature)
                }
                if let value = found, !value.isEmpty {
                    record.bytes.append(contentsOf: value.utf8)
                    break
                }
            }
            record.ends.append(record.bytes.count)
        }
        for key in (filterKey.map { [$0] } ?? []) + patternKeys {
            record.bytes.append(contentsOf: (feature.properties[key] ?? "").utf8)
            record.ends.append(record.bytes.count)
        }
    }

    static func value(_ source: Source, of feature: GeoJSONFeature) -> String? {
        let p = feature.properties
        switch source {
        case .first(let keys): return keys.lazy.compactMap { p[$0] }.first { !$0.isEmpty }
        case .joined(let keys):
            let parts = keys.compactMap { p[$0] }.filter { !$0.isEmpty }
            return parts.isEmpty ? nil : parts.joined(separator: "-")
        case .osmElement:
            if let type = p["@type"], Self.osmTypes.contains(type), let id = p["@id"] { return "\(type)/\(id)" }
            // Overpass turbo writes the element whole: `"@id": "node/123"`.
            guard let id = p["@id"], let slash = id.firstIndex(of: "/"), Self.osmTypes.contains(String(id[..<slash])),
                !id[id.index(after: slash)...].isEmpty, id[id.index(after: slash)...].allSatisfy(\.isASCIIDigit)
            else { return nil }
            return id
        case .featureId: return feature.id
        case .named:
            // Read by `record`, which works the names out once per feature; nothing else asks for it.
            return nil
        case .streetAndNumber: return Self.streetAddress(p)
        case .latitude, .longitude:
            switch feature.place {
            case .point(let latitude, let longitude): return source == .latitude ? latitude : longitude
            case .footprint(let f): return source == .latitude ? "\(f.center.latitude)" : "\(f.center.longitude)"
            case .none: return nil
            }
        case .footprintRadius, .footprintVenueRadius:
            guard case .footprint(let f) = feature.place, let (radius, isVenue) = Self.radius(f) else { return nil }
            return isVenue == (source == .footprintVenueRadius) ? radius : nil
        }
    }

    /// A footprint smaller than `pointLikeMeters` sets no radius (the radius policy's smallest region already holds
    /// it); one up to `venueFromMeters` is the region's radius, so the region holds the whole building; a larger one
    /// is a venue (`venue_radius_m`), sized and split by the venue rules. Whole metres, rounded up.
    static func radius(_ footprint: Footprint) -> (String, isVenue: Bool)? {
        let r = footprint.radiusMeters.rounded(.up)
        guard r >= pointLikeMeters else { return nil }
        return (String(Int(min(r, 50_000))), r >= venueFromMeters)
    }

    /// The smallest region the radius policy draws (its dense tier's lower bound, `RadiusPolicy.dense`).
    static let pointLikeMeters = 30.0
    /// Where the radius policy's large-area rule starts (`RadiusPolicy.largeArea`'s lower bound).
    static let venueFromMeters = 500.0

    /// `12 Main Street` where the country puts the number first, `Mannerheimintie 12` elsewhere (most of Europe).
    static func streetAddress(_ p: [String: String]) -> String? {
        guard let street = p["addr:street"], !street.isEmpty else { return nil }
        guard let number = p["addr:housenumber"], !number.isEmpty else { return street }
        let country = p["addr:country"]?.uppercased() ?? ""
        let inUS = country.isEmpty && p["addr:state"].flatMap(USRegions.region) != nil
        return inUS || numberFirstCountries.contains(country) ? "\(number) \(street)" : "\(street) \(number)"
    }

    static let osmTypes: Set<String> = ["node", "way", "relation"]

    /// Countries whose addresses put the house number before the street.
    static let numberFirstCountries: Set<String> = [
        "US", "CA", "GB", "IE", "AU", "NZ", "FR", "LU", "IL", "PH", "SG", "MY", "TH", "ZA", "IN", "PK", "LK",
    ]
}
