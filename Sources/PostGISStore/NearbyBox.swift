import Foundation
import Geo

/// Longitude/latitude boxes that hold every point within a great-circle distance of a centre: what the `geometry`
/// GiST index can be asked (`&&`), before OnCue's own haversine decides. A spherical cap of angular radius δ around
/// latitude φ spans φ ± δ in latitude and λ ± asin(sin δ / cos φ) in longitude, unless it holds a pole (then every
/// longitude); a box that crosses the antimeridian is asked again on the other side. Widened by a part in a billion
/// (and a millimetre, and a nanodegree) so that rounding never leaves a point out.
enum NearbyBox {
    /// The boxes to ask around a fixed centre (`CircleBounds`, with the radius widened): one, two when the box crosses
    /// the antimeridian, a band of every longitude when the cap holds a pole.
    static func boxes(around c: Coordinate, meters: Double) -> [GeoBox] {
        CircleBounds(center: c, radiusMeters: meters * (1 + 1e-9) + 1e-3).boxes.map { b in
            GeoBox(
                minLatitude: b.minLatitude - 1e-9, maxLatitude: b.maxLatitude + 1e-9, minLongitude: b.minLongitude - 1e-9,
                maxLongitude: b.maxLongitude + 1e-9)
        }
    }

    /// `column && box` for the boxes around a fixed centre, OR-ed: an index condition the planner can scan.
    static func predicate(column: String, around c: Coordinate, meters: Double) -> String {
        let parts = boxes(around: c, meters: meters).map { b in
            "\(column) && ST_MakeEnvelope(\(b.minLongitude), \(b.minLatitude), \(b.maxLongitude), \(b.maxLatitude), 4326)"
        }
        return "(" + parts.joined(separator: " OR ") + ")"
    }

    /// The same for a centre in other columns of the query (`latitude`, `longitude` name them), computed per row by
    /// the server: the box around the point and its copies shifted by ±360° (which find nothing unless the box
    /// crosses the antimeridian).
    static func predicate(column: String, latitude: String, longitude: String, meters: Double) -> String {
        let dLat = meters / Sphere.metersPerDegree * (1 + 1e-9) + 1e-9
        let angle = min(meters / Sphere.earthRadiusMeters, .pi / 2)
        let dLon = """
            (CASE WHEN abs(\(latitude)) + \(dLat) >= 90 OR sin(\(angle)) >= cos(radians(\(latitude))) THEN 180 \
            ELSE least(180, degrees(asin(sin(\(angle)) / cos(radians(\(latitude))))) * (1 + 1e-9) + 1e-9) END)
            """
        let parts = [0, 360, -360].map { shift in
            "\(column) && ST_MakeEnvelope(\(longitude) + \(shift) - \(dLon), \(latitude) - \(dLat), "
                + "\(longitude) + \(shift) + \(dLon), \(latitude) + \(dLat), 4326)"
        }
        return "(" + parts.joined(separator: " OR ") + ")"
    }
}
