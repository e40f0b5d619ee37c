import Foundation
import Geo
import Hummingbird
import NIOCore
import RegionRefresh

/// `GET /v1/locations?bbox=MINLON,MINLAT,MAXLON,MAXLAT&limit=N`: the locations inside a box (the console's map), with
/// the radius each one's region would have; nearest the box's centre first when there are more than `limit`.
/// The box is the map an analyst looks at, not a phone's position; it is not logged all the same.
struct LocationsRoute: Sendable {
    let engine: RegionRefreshEngine

    static let defaultLimit = 2_000
    static let maxLimit = 5_000

    func locations(_ request: Request, context: ServerContext) throws -> Response {
        let query = request.uri.queryParameters
        for (name, _) in query where name != "bbox" && name != "limit" {
            throw APIError.badRequest("invalid_parameter", "unknown query parameter '\(name.prefix(64))'", field: String(name.prefix(64)))
        }
        let box = try Self.box(query["bbox"].map(String.init))
        var limit = Self.defaultLimit
        if let text = query["limit"] {
            guard let value = Int(text), (1...Self.maxLimit).contains(value) else {
                throw APIError.badRequest("invalid_parameter", "'limit' must be an integer in 1...\(Self.maxLimit)", field: "limit")
            }
            limit = value
        }
        guard let index = engine.index else { throw RegionRefreshError.notReady }
        let (found, truncated) = index.locations(in: box, limit: limit)
        var w = JSONWriter(capacity: 64 + found.count * 160)
        w.beginObject()
        w.key("locations")
        w.beginArray()
        for l in found {
            w.beginObject()
            w.key("id"); w.string(l.id)
            w.key("network_id"); w.string(l.networkId)
            w.key("name"); w.string(l.name)
            if let address = l.address { w.key("address"); w.string(address) }
            w.key("lat"); w.number(l.coordinate.latitude)
            w.key("lon"); w.number(l.coordinate.longitude)
            w.key("radius_meters"); w.number(l.radiusMeters)
            w.key("radius_rule"); w.string(l.radiusRule)
            w.endObject()
        }
        w.endArray()
        w.key("truncated"); w.bool(truncated)
        w.endObject()
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: w.buffer))
    }

    /// Four finite numbers in range; a box whose west edge is east of its east edge crosses the antimeridian.
    static func box(_ text: String?) throws -> GeoBox {
        guard let text else { throw APIError.badRequest("invalid_parameter", "'bbox' is required: MINLON,MINLAT,MAXLON,MAXLAT", field: "bbox") }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let minLon = parts[0], let minLat = parts[1], let maxLon = parts[2], let maxLat = parts[3],
              [minLon, minLat, maxLon, maxLat].allSatisfy(\.isFinite) else {
            throw APIError.badRequest("invalid_parameter", "'bbox' must be four numbers MINLON,MINLAT,MAXLON,MAXLAT", field: "bbox")
        }
        guard (-180...180).contains(minLon), (-180...180).contains(maxLon), (-90...90).contains(minLat), (-90...90).contains(maxLat),
              minLat <= maxLat else {
            throw APIError.badRequest("invalid_parameter", "'bbox' needs longitudes in [-180, 180], latitudes in [-90, 90] and MINLAT <= MAXLAT",
                                      field: "bbox")
        }
        return GeoBox(minLatitude: minLat, maxLatitude: maxLat, minLongitude: minLon, maxLongitude: maxLon)
    }
}
