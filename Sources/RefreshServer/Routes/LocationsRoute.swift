import Foundation
import Geo
import Hummingbird
import NIOCore
import OnCueContract
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
            w.key("id")
            w.string(l.id)
            w.key("network_id")
            w.string(l.networkId)
            w.key("name")
            w.string(l.name)
            if let address = l.address {
                w.key("address")
                w.string(address)
            }
            w.key("lat")
            w.number(l.coordinate.latitude)
            w.key("lon")
            w.number(l.coordinate.longitude)
            w.key("radius_meters")
            w.number(l.radiusMeters)
            w.key("radius_rule")
            w.string(l.radiusRule)
            w.endObject()
        }
        w.endArray()
        w.key("truncated")
        w.bool(truncated)
        w.endObject()
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: w.buffer))
    }

    /// Four plain decimals (the document's pattern; no exponent, hex or `inf`). A box whose west edge is east of its east
    /// edge crosses the antimeridian. A map view gives what it shows: latitudes past a pole are clamped and taken in either
    /// order, longitudes past ±180 (panned across the antimeridian) are wrapped, and 360° or more of width is the world.
    static func box(_ text: String?) throws -> GeoBox {
        guard let text else { throw APIError.badRequest("invalid_parameter", "'bbox' is required: MINLON,MINLAT,MAXLON,MAXLAT", field: "bbox") }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(plainDecimal)
        guard parts.count == 4, let west = parts[0], let south = parts[1], let east = parts[2], let north = parts[3] else {
            throw APIError.badRequest("invalid_parameter", "'bbox' must be four decimal numbers MINLON,MINLAT,MAXLON,MAXLAT", field: "bbox")
        }
        let minLat = min(max(min(south, north), -90), 90)
        let maxLat = min(max(max(south, north), -90), 90)
        if (-180...180).contains(west), (-180...180).contains(east) {
            return GeoBox(minLatitude: minLat, maxLatitude: maxLat, minLongitude: west, maxLongitude: east)
        }
        if east - west >= 360 || !west.isFinite || !east.isFinite {
            return GeoBox(minLatitude: minLat, maxLatitude: maxLat, minLongitude: -180, maxLongitude: 180)
        }
        return GeoBox(minLatitude: minLat, maxLatitude: maxLat, minLongitude: wrapped(west), maxLongitude: wrapped(east))
    }

    /// `-?[0-9]+(\.[0-9]+)?`; hundreds of digits make an infinity, which the box then clamps.
    static func plainDecimal(_ text: Substring) -> Double? {
        var rest = text.utf8[...]
        if rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
        let isDigit = { (c: UInt8) in c >= 48 && c <= 57 }
        let whole = rest.prefix(while: isDigit)
        guard !whole.isEmpty else { return nil }
        rest = rest.dropFirst(whole.count)
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            let fraction = rest.prefix(while: isDigit)
            guard !fraction.isEmpty else { return nil }
            rest = rest.dropFirst(fraction.count)
        }
        guard rest.isEmpty, let value = Double(text) else { return nil }
        return value
    }

    /// A longitude brought into [-180, 180].
    static func wrapped(_ longitude: Double) -> Double {
        let r = (longitude + 180).truncatingRemainder(dividingBy: 360)
        return (r < 0 ? r + 360 : r) - 180
    }
}
