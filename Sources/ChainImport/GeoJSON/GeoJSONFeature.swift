import Geo

/// One GeoJSON Feature as the import reads it: its properties as text, its `id` member, and where it stands.
struct GeoJSONFeature {
    var properties: [String: String]
    /// The Feature's own `id` member, as text.
    var id: String?
    var place: Place

    enum Place {
        /// A Point's coordinates as the file wrote them, for the same checks as a CSV's columns.
        case point(latitude: String, longitude: String)
        /// A Polygon or MultiPolygon.
        case footprint(Footprint)
        /// `"geometry": null`: only a geocoder can place it.
        case none
    }

    /// Why a feature is rejected (a `RowIssue` that can travel in a `Result`).
    struct Rejection: Error {
        let issue: RowIssue
        init(_ code: ReasonCode, _ message: String) { issue = RowIssue(code, message) }
    }

    /// Parses one feature's JSON; a feature the import cannot use comes back as the issue that rejects it.
    static func decode(_ bytes: [UInt8]) -> Result<GeoJSONFeature, Rejection> {
        let parsed: JSONReader.Parsed
        do { parsed = try JSONReader.parse(bytes) } catch {
            return .failure(Rejection(.invalidGeoJSON, "not valid JSON (\(error.message))"))
        }
        if let number = parsed.unrepresentable {
            return .failure(Rejection(.invalidGeoJSON, "the number \(number) is beyond what a double holds (it would read as 0 or infinity)"))
        }
        let feature = parsed.value
        guard case .object = feature else {
            return .failure(Rejection(.invalidGeoJSON, "a JSON \(feature.kind) where a Feature object was expected"))
        }
        let type = feature["type"]?.string
        guard type == "Feature" else {
            let what = type.map { "a GeoJSON \($0.clipped(40))" } ?? "an object without \"type\""
            return .failure(Rejection(.invalidGeoJSON, "\(what) where a Feature was expected"))
        }
        var properties: [String: String] = [:]
        if case .object(let members)? = feature["properties"] {
            for member in members { properties[member.name] = member.value.text }
        }
        let id = feature["id"]?.text
        switch Self.locate(feature["geometry"]) {
        case .success(let place): return .success(GeoJSONFeature(properties: properties, id: id, place: place))
        case .failure(let issue): return .failure(issue)
        }
    }

    private static func locate(_ geometry: JSONValue?) -> Result<Place, Rejection> {
        guard let geometry, !geometry.isNull else { return .success(.none) }
        guard case .object = geometry, let type = geometry["type"]?.string else {
            return .failure(Rejection(.invalidGeoJSON, "the geometry is not a GeoJSON geometry object"))
        }
        let coordinates = geometry["coordinates"]
        switch type {
        case "Point":
            return point(coordinates)
        case "MultiPoint":
            // One point is a point; several are several places, which one row cannot be.
            guard let points = coordinates?.array, points.count == 1 else {
                return .failure(Rejection(.unsupportedGeometry, "a MultiPoint of several points: import each as a Point"))
            }
            return point(points[0])
        case "Polygon", "MultiPolygon":
            let parts = type == "Polygon" ? coordinates.flatMap { $0.array == nil ? nil : [$0] } : coordinates?.array
            guard let parts, let polygons = Self.polygons(parts) else {
                return .failure(Rejection(.invalidGeoJSON, "a \(type) whose coordinates are not rings of [longitude, latitude] in range"))
            }
            guard let footprint = Footprint(parts: polygons) else {
                return .failure(Rejection(.invalidGeoJSON, "a \(type) without area (its rings have fewer than 3 distinct points)"))
            }
            return .success(.footprint(footprint))
        default:
            return .failure(
                Rejection(
                    .unsupportedGeometry,
                    "a \(type.clipped(40)) is not a place: only Point, Polygon and MultiPolygon features are imported"))
        }
    }

    /// A Point's position as text for the coordinate check, as a CSV's columns get it: RFC 7946 §3.1.1 makes a
    /// position numbers, so a string ("40.7"), `true` or `null` is refused, not read as one.
    private static func point(_ coordinates: JSONValue?) -> Result<Place, Rejection> {
        guard let pair = coordinates?.array, pair.count >= 2 else {
            return .failure(Rejection(.invalidGeoJSON, "a Point without [longitude, latitude]"))
        }
        guard let longitude = pair[0].number, let latitude = pair[1].number else {
            return .failure(Rejection(.invalidGeoJSON, "a Point whose coordinates are not JSON numbers"))
        }
        return .success(.point(latitude: "\(latitude)", longitude: "\(longitude)"))
    }

    /// Polygons from `[[[[lon, lat], …], …], …]`; nil when a position is not two numbers in range.
    private static func polygons(_ parts: [JSONValue]) -> [Footprint.Polygon]? {
        var out: [Footprint.Polygon] = []
        for part in parts {
            guard let rings = part.array, !rings.isEmpty else { return nil }
            var polygon: Footprint.Polygon = []
            for ring in rings {
                guard let points = Self.points(of: ring) else { return nil }
                polygon.append(points)
            }
            out.append(polygon)
        }
        return out.isEmpty ? nil : out
    }

    /// A ring's points; nil when a position is not two numbers in range. Read from the packed numbers where the reader
    /// packed them (a value per vertex would cost ten times the ring's text), else position by position (positions of
    /// mixed lengths, or with integers among their numbers).
    private static func points(of ring: JSONValue) -> [(lon: Double, lat: Double)]? {
        var points: [(lon: Double, lat: Double)] = []
        if let (values, dimension) = ring.packedPositions, dimension >= 2 {
            points.reserveCapacity(values.count / dimension)
            for start in stride(from: 0, to: values.count, by: dimension) {
                points.append((values[start], values[start + 1]))
            }
        } else {
            guard let positions = ring.array else { return nil }
            for position in positions {
                guard let pair = position.array, pair.count >= 2, let lon = pair[0].number, let lat = pair[1].number else { return nil }
                points.append((lon, lat))
            }
        }
        guard points.allSatisfy({ (-180...180).contains($0.lon) && (-90...90).contains($0.lat) }) else { return nil }
        return points
    }
}
