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
        if let number = Self.unrepresentableNumber(bytes) {
            return .failure(Rejection(.invalidGeoJSON, "the number \(number) is beyond what a double holds (it would read as 0 or infinity)"))
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

    /// A property's value as the text a CSV cell would hold: strings as they are (`"250"` reads as 250 where a number
    /// is wanted, as in a CSV), numbers in their shortest form, `true`/`false` as words (never the 1 and 0 an NSNumber
    /// would give, which a `radius_m` would take for metres); `null`, objects and arrays have none.
    static func text(_ value: Any) -> String? {
        switch value {
        case let s as String: s
        case let n as NSNumber where Self.isBoolean(n): n.boolValue ? "true" : "false"
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
            // RFC 7946 §3.1.1: a position is numbers. A string ("40.7") is refused, not read as one.
            guard let longitude = Self.number(pair[0]), let latitude = Self.number(pair[1]) else {
                return .failure(Rejection(.invalidGeoJSON, "a Point whose coordinates are not JSON numbers"))
            }
            return .success(.point(latitude: latitude, longitude: longitude))
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

    /// A coordinate as text for the coordinate check: a JSON number in its shortest form; nil for anything else (a
    /// string, `true`, `null`).
    private static func number(_ value: Any) -> String? {
        guard let n = value as? NSNumber, !(value is String), !Self.isBoolean(n) else { return nil }
        return "\(n.doubleValue)"
    }

    private static func isBoolean(_ n: NSNumber) -> Bool {
        // JSONSerialization gives `true` and `false` as NSNumbers too, of C type char, where numbers are integers or doubles.
        String(cString: n.objCType) == "c"
    }

    /// The first number outside strings whose exponent puts it beyond a double (`1e-400`, `2e400`), which JSON
    /// parsers read as 0 or infinity without a word; nil when there is none.
    static func unrepresentableNumber(_ bytes: [UInt8]) -> String? {
        var i = 0
        var inString = false
        while i < bytes.count {
            let b = bytes[i]
            if inString {
                if b == UInt8(ascii: "\\") {
                    i += 2
                    continue
                }
                if b == UInt8(ascii: "\"") { inString = false }
                i += 1
                continue
            }
            if b == UInt8(ascii: "\"") {
                inString = true
                i += 1
                continue
            }
            guard b == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) else {
                i += 1
                continue
            }
            var j = i
            var exponent = false
            while j < bytes.count {
                let c = bytes[j]
                if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                    exponent = true
                } else if !((UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || c == UInt8(ascii: ".") || c == UInt8(ascii: "-")
                    || c == UInt8(ascii: "+"))
                {
                    break
                }
                j += 1
            }
            // Only a number with an exponent can leave a double's range; the rest (nearly every coordinate) costs a pass.
            if exponent {
                let token = String(decoding: bytes[i..<j], as: UTF8.self)
                if let value = Double(token) {
                    let mantissaIsZero = token.prefix { $0 != "e" && $0 != "E" }.allSatisfy { "0.-+".contains($0) }
                    if value.isInfinite || (value == 0 && !mantissaIsZero) { return String(token.prefix(40)) }
                }
            }
            i = max(j, i + 1)
        }
        return nil
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
