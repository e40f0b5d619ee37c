import Foundation
import Geo

/// The first place of a Nominatim `format=jsonv2` answer, read defensively: the body comes from another service.
package struct GeocodeAnswer: Sendable, Hashable {
    package var lat: Double
    package var lon: Double
    package var displayName: String?
    /// Nominatim's address rank: 30 a house or shop, 26–27 a street, 16 a city, 4 a country.
    package var placeRank: Int?
    package var importance: Double?
    /// ISO 3166-1 alpha-2, lower case.
    package var countryCode: String?
    /// Half the diagonal of the answer's `boundingbox` (metres): how far the place may be from the point.
    package var uncertaintyMeters: Double?

    /// Coarser than a street: the service matched only a city, a postcode or a region, which contains many stores.
    package static let minimumPointRank = 26

    package var isArea: Bool { (placeRank ?? Self.minimumPointRank) < Self.minimumPointRank }

    /// Why a body is not a usable answer.
    package enum Malformed: Error, Equatable, CustomStringConvertible {
        case notJSON
        case notAnArray
        case badCoordinates(String)

        package var description: String {
            switch self {
            case .notJSON: "the answer is not JSON"
            case .notAnArray: "the answer is JSON but not a jsonv2 result list"
            case .badCoordinates(let detail): "the answer's coordinates are unusable (\(detail))"
            }
        }
    }

    /// Reads the first result of a search answer; nil when the list is empty (nothing found).
    package static func first(in body: Data) throws(Malformed) -> GeocodeAnswer? {
        guard let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else { throw .notJSON }
        guard let list = json as? [Any] else { throw .notAnArray }
        guard let place = list.first else { return nil }
        guard let object = place as? [String: Any] else { throw .notAnArray }
        // jsonv2 writes coordinates as strings; accept numbers too, and nothing that is not a finite, valid angle.
        func number(_ key: String) -> Double? {
            if let s = object[key] as? String { return Double(s) }
            return (object[key] as? NSNumber)?.doubleValue
        }
        guard let lat = number("lat"), let lon = number("lon") else { throw .badCoordinates("no lat/lon") }
        guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else {
            throw .badCoordinates("lat \(lat), lon \(lon)")
        }
        let address = object["address"] as? [String: Any]
        return GeocodeAnswer(
            lat: lat, lon: lon, displayName: object["display_name"] as? String,
            placeRank: (object["place_rank"] as? NSNumber)?.intValue,
            importance: (object["importance"] as? NSNumber)?.doubleValue,
            countryCode: (address?["country_code"] as? String)?.lowercased(),
            uncertaintyMeters: Self.halfDiagonal(object["boundingbox"]))
    }

    /// Nominatim's `boundingbox`, `[min lat, max lat, min lon, max lon]` as strings (or numbers): half its diagonal in
    /// metres, or nil when it is missing or not four valid angles.
    package static func halfDiagonal(_ value: Any?) -> Double? {
        guard let items = value as? [Any], items.count == 4 else { return nil }
        let numbers = items.compactMap { ($0 as? String).flatMap(Double.init) ?? ($0 as? NSNumber)?.doubleValue }
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite), abs(numbers[0]) <= 90, abs(numbers[1]) <= 90,
            abs(numbers[2]) <= 180, abs(numbers[3]) <= 180
        else { return nil }
        return Sphere.distance(lat1: numbers[0], lon1: numbers[2], lat2: numbers[1], lon2: numbers[3]) / 2
    }
}
