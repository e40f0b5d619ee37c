import Foundation
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
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) } catch {
            return .failure(Rejection(.invalidGeoJSON, "not valid JSON (\(Self.reason(error)))"))
        }
        guard let feature = object as? [String: Any] else {
            return .failure(Rejection(.invalidGeoJSON, "a JSON \(object is [Any] ? "array" : "value") where a Feature object was expected"))
        }
        let type = feature["type"] as? String
        guard type == "Feature" else {
            let what = type.map { "a GeoJSON \($0.clipped(40))" } ?? "an object without \"type\""
            return .failure(Rejection(.invalidGeoJSON, "\(what) where a Feature was expected"))
        }
        var properties: [String: String] = [:]
        for (key, value) in feature["properties"] as? [String: Any] ?? [:] {
            if let text = Self.text(value) { properties[key] = text }
        }
        let id = feature["id"].flatMap(Self.text)
        switch Self.locate(feature["geometry"]) {
        case .success(let place): return .success(GeoJSONFeature(properties: properties, id: id, place: place))
        case .failure(let issue): return .failure(issue)
        }
    }

    /// A property's value as text: strings as they are, numbers as written; `null`, objects and arrays have none.
    static func text(_ value: Any) -> String? {
        switch value {
        case let s as String: s
        case let n as NSNumber: n.stringValue
        default: nil
        }
    }

    private static func locate(_ geometry: Any?) -> Result<Place, Rejection> {
        guard let geometry, !(geometry is NSNull) else { return .success(.none) }
        guard let object = geometry as? [String: Any], let type = object["type"] as? String else {
            return .failure(Rejection(.invalidGeoJSON, "the geometry is not a GeoJSON geometry object"))
        }
        let coordinates = object["coordinates"]
        switch type {
        case "Point":
            guard let pair = coordinates as? [Any], pair.count >= 2 else {
                return .failure(Rejection(.invalidGeoJSON, "a Point without [longitude, latitude]"))
            }
            return .success(.point(latitude: Self.number(pair[1]), longitude: Self.number(pair[0])))
        case "MultiPoint":
            // One point is a point; several are several places, which one row cannot be.
            guard let points = coordinates as? [Any], points.count == 1 else {
                return .failure(Rejection(.unsupportedGeometry, "a MultiPoint of several points: import each as a Point"))
            }
            return locate(["type": "Point", "coordinates": points[0]])
        case "Polygon", "MultiPolygon":
            let parts = type == "Polygon" ? (coordinates as? [Any]).map { [$0 as Any] } : coordinates as? [Any]
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

    /// A coordinate as text: a number in its shortest form, anything else as found (the coordinate check says why not).
    private static func number(_ value: Any) -> String {
        if let n = value as? NSNumber, !(value is String) { return "\(n.doubleValue)" }
        return text(value) ?? ""
    }

    /// Polygons from `[[[[lon, lat], …], …], …]`; nil when a position is not two numbers in range.
    private static func polygons(_ parts: [Any]) -> [Footprint.Polygon]? {
        var out: [Footprint.Polygon] = []
        for part in parts {
            guard let rings = part as? [Any], !rings.isEmpty else { return nil }
            var polygon: Footprint.Polygon = []
            for ring in rings {
                guard let positions = ring as? [Any] else { return nil }
                var points: [(lon: Double, lat: Double)] = []
                points.reserveCapacity(positions.count)
                for position in positions {
                    guard let pair = position as? [Any], pair.count >= 2, let lon = (pair[0] as? NSNumber)?.doubleValue,
                        let lat = (pair[1] as? NSNumber)?.doubleValue, (-180...180).contains(lon), (-90...90).contains(lat)
                    else { return nil }
                    points.append((lon, lat))
                }
                polygon.append(points)
            }
            out.append(polygon)
        }
        return out.isEmpty ? nil : out
    }

    private static func reason(_ error: any Error) -> String {
        let text = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
        return text.count > 120 ? String(text.prefix(120)) + "…" : text
    }
}
