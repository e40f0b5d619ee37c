/// What an import found about a file's coordinate precision: how many rows are too coarse for a geofence, how far
/// off they may be, and what to do about it. Kept in the import log.
public struct PrecisionDiagnosis: Sendable, Codable, Hashable {
    public var coarseRows: Int
    public var rowsWithCoordinates: Int
    public var share: Double
    /// The most common decimals among the coarse rows.
    public var typicalDecimals: Int
    /// The mean error implied by rounding to `typicalDecimals` (half the grid cell's diagonal at the rows' latitudes).
    public var errorMeters: Double
    /// Whether the file sits on a grid shared by most of its rows (decided from its first rows).
    public var fileGridDecimals: Int?
    public var advice: String

    enum CodingKeys: String, CodingKey {
        case coarseRows = "coarse_rows"
        case rowsWithCoordinates = "rows_with_coordinates"
        case share
        case typicalDecimals = "typical_decimals"
        case errorMeters = "error_meters"
        case fileGridDecimals = "file_grid_decimals"
        case advice
    }

    public init(
        coarseRows: Int, rowsWithCoordinates: Int, share: Double, typicalDecimals: Int, errorMeters: Double,
        fileGridDecimals: Int?, advice: String
    ) {
        self.coarseRows = coarseRows
        self.rowsWithCoordinates = rowsWithCoordinates
        self.share = share
        self.typicalDecimals = typicalDecimals
        self.errorMeters = errorMeters
        self.fileGridDecimals = fileGridDecimals
        self.advice = advice
    }
}

/// What geocoding did for one import: how many rows asked the service, came from the cache, were placed, or not.
/// Kept in the import log; the rows that were not placed are also issues with `geocode_*` reason codes.
public struct GeocodeSummary: Sendable, Codable, Hashable {
    /// The service's base URL, without credentials.
    public var service: String
    /// `missing`, `coarse` or `all`.
    public var mode: String
    /// Rows that wanted a geocode.
    public var rows = 0
    /// Rows whose address was answered from the store's cache.
    public var fromCache = 0
    /// Rows whose address was asked of the service in this import.
    public var asked = 0
    /// Rows given the geocoded point.
    public var placed = 0
    public var notFound = 0
    /// Only an area (a city, a postcode) matched.
    public var ambiguous = 0
    public var wrongCountry = 0
    /// The service could not answer (down, throttling, garbage).
    public var failed = 0
    /// A dry run asks nothing: rows whose address is not cached yet.
    public var notAsked = 0
    /// Geocoded points more than ~2 km from the file's own coordinates.
    public var farFromOriginal = 0

    public init(service: String, mode: String) {
        self.service = service
        self.mode = mode
    }

    enum CodingKeys: String, CodingKey {
        case service, mode, rows, asked, placed, failed
        case fromCache = "from_cache"
        case notFound = "not_found"
        case ambiguous
        case wrongCountry = "wrong_country"
        case notAsked = "not_asked"
        case farFromOriginal = "far_from_original"
    }
}

/// Where a geocoded location's coordinates came from.
public struct GeocodeProvenance: Sendable, Codable, Hashable {
    public var locationId: String
    /// The service's base URL, without credentials.
    public var source: String
    public var displayName: String?
    public var placeRank: Int?
    public var importance: Double?
    /// The file's own coordinates, when it had some (coarse rows, `--geocode all`).
    public var originalLatitude: Double?
    public var originalLongitude: Double?
    /// Metres from the file's coordinates to the geocoded point.
    public var shiftMeters: Double?
    public var importId: Int64?

    public init(
        locationId: String, source: String, displayName: String?, placeRank: Int?, importance: Double?,
        originalLatitude: Double?, originalLongitude: Double?, shiftMeters: Double?, importId: Int64?
    ) {
        self.locationId = locationId
        self.source = source
        self.displayName = displayName
        self.placeRank = placeRank
        self.importance = importance
        self.originalLatitude = originalLatitude
        self.originalLongitude = originalLongitude
        self.shiftMeters = shiftMeters
        self.importId = importId
    }

    enum CodingKeys: String, CodingKey {
        case locationId = "location_id"
        case source
        case displayName = "display_name"
        case placeRank = "place_rank"
        case importance
        case originalLatitude = "original_lat"
        case originalLongitude = "original_lon"
        case shiftMeters = "shift_meters"
        case importId = "import_id"
    }
}
