/// What a column of a chain file means to the importer.
package enum FieldRole: String, Sendable, Codable, CaseIterable, Comparable {
    case id, name, address, city, region
    case postalCode = "postal_code"
    case country, latitude, longitude
    /// The brand/chain/system column that splits a file into networks.
    case network
    /// Where a network created by this import takes its display name from (e.g. IMLS `LIBNAME`).
    case networkName = "network_name"
    /// The location's own region radius in metres, overriding every policy.
    case radius = "radius_m"
    /// A venue's size as the radius of a disc of its area (metres): the location is a large venue (a theme park, an
    /// airport), its region sized for the venue, and split into several circles past 2 km.
    case venueRadius = "venue_radius_m"
    /// The brand's Wikidata id (`Q38076`, OpenStreetMap's `brand:wikidata`): picks the row's network through the brand
    /// catalogue, whatever the brand column spells.
    case brandWikidata = "brand_wikidata"
    /// OpenStreetMap `opening_hours` (`Mo-Fr 08:00-20:00; Sa 09:00-18:00`), kept as written.
    case openingHours = "opening_hours"

    package static func < (a: FieldRole, b: FieldRole) -> Bool { a.ordinal < b.ordinal }

    /// The role's place in `allCases`: an array index, for per-row lookups that a dictionary would hash.
    var ordinal: Int {
        switch self {
        case .id: 0
        case .name: 1
        case .address: 2
        case .city: 3
        case .region: 4
        case .postalCode: 5
        case .country: 6
        case .latitude: 7
        case .longitude: 8
        case .network: 9
        case .networkName: 10
        case .radius: 11
        case .venueRadius: 12
        case .brandWikidata: 13
        case .openingHours: 14
        }
    }

    /// Header names recognised for the role, as normalised by `ColumnMapping.normalise`
    /// (lower case, letters and digits only). Order matters: earlier names win.
    var synonyms: [String] {
        switch self {
        case .id: ["id", "storeid", "storenumber", "storeno", "storenum", "locationid", "siteid", "key", "keys", "uid", "ref"]
        case .name: ["name", "storename", "locationname", "libname", "branchname", "title", "placename"]
        case .address: ["address", "streetaddress", "addressline1", "address1", "street", "addr", "streetaddr"]
        case .city: ["city", "town", "locality", "municipality"]
        case .region: ["state", "province", "stabr", "region", "subdivision", "statecode", "stateprovince"]
        case .postalCode: ["zip", "zipcode", "postcode", "postalcode", "zip5", "postal"]
        case .country: ["country", "countrycode", "countryname", "nation"]
        case .latitude: ["lat", "latitude", "y", "ycoord", "latdd", "geolat"]
        case .longitude: ["lon", "lng", "long", "longitude", "longitud", "x", "xcoord", "londd", "geolng", "geolon"]
        case .network: ["brand", "chain", "network", "brandname", "chainname"]
        case .networkName: ["networkname"]
        // A bare "radius" is left out: files use it in miles or kilometres as often as in metres.
        case .radius: ["radiusm", "radiusmeters", "radiusmetres", "geofenceradius", "geofenceradiusm"]
        case .venueRadius: ["venueradiusm", "venueradius", "venueradiusmeters", "venueradiusmetres"]
        case .brandWikidata: ["brandwikidata", "wikidata", "brandqid"]
        // A bare "hours" is left out: files use it for hours a year or a week (IMLS HOURS) as often as for a schedule.
        case .openingHours: ["openinghours", "openingtimes"]
        }
    }
}
