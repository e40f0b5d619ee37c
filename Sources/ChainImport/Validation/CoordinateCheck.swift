import Foundation
import Geo

/// The verdict on one row's coordinates.
package enum CoordinateVerdict: Sendable, Equatable {
    case accepted(Coordinate, warning: (ReasonCode, String)?)
    case rejected(ReasonCode, String)

    public static func == (a: CoordinateVerdict, b: CoordinateVerdict) -> Bool {
        switch (a, b) {
        case let (.accepted(c1, w1), .accepted(c2, w2)): c1 == c2 && w1?.0 == w2?.0
        case let (.rejected(r1, _), .rejected(r2, _)): r1 == r2
        default: false
        }
    }
}

/// Checks a row's latitude/longitude text against each other and against the state and country
/// the row names. A US row whose point falls outside its state is tried with the longitude's sign
/// flipped and with latitude and longitude swapped, so those common export bugs get their own codes.
package struct CoordinateCheck: Sendable {
    /// Grace around a state's bounding box before a point counts as outside it (≈ 28 km).
    package var regionMarginDegrees = 0.25
    /// Correct sign-flipped and swapped coordinates (with a warning) instead of rejecting the row.
    public var fixCoordinates = false
    /// A decimal comma (`40,7`) is accepted when the file's delimiter is not a comma.
    package var allowDecimalComma = false

    package init(fixCoordinates: Bool = false, allowDecimalComma: Bool = false) {
        self.fixCoordinates = fixCoordinates
        self.allowDecimalComma = allowDecimalComma
    }

    package func check(latitude latText: String, longitude lonText: String, region: String?, country: String?) -> CoordinateVerdict {
        let latT = String(latText.trimmedOfWhitespace)
        let lonT = String(lonText.trimmedOfWhitespace)
        if latT.isEmpty || lonT.isEmpty {
            return .rejected(
                .missingCoordinates,
                latT.isEmpty && lonT.isEmpty
                    ? "no latitude and longitude"
                    : latT.isEmpty ? "no latitude" : "no longitude")
        }
        guard let lat = parse(latT), let lon = parse(lonT) else {
            return .rejected(
                .unparseableCoordinates,
                "cannot read '\(latT.clipped(40))', '\(lonT.clipped(40))' as decimal degrees "
                    + "(plain decimal numbers such as 40.7128 and -74.0060)")
        }
        if lat == 0 && lon == 0 { return .rejected(.zeroCoordinates, "(0, 0) is the null island placeholder, not a place") }
        if abs(lat) > 90 || abs(lon) > 180 {
            if abs(lon) <= 90 && abs(lat) <= 180 {
                return swapped(lat, lon, "latitude \(lat) is out of range; latitude and longitude look swapped")
            }
            return .rejected(.outOfRange, "(\(lat), \(lon)) is outside [-90, 90] × [-180, 180]")
        }
        let state = region.flatMap { $0.isEmpty ? nil : USRegions.region($0) }
        let countryIsUS: Bool? = country.flatMap { $0.trimmedOfWhitespace.isEmpty ? nil : USRegions.isUnitedStates($0) }
        // A non-US country, or nothing to compare with: range checks are all we can do.
        if countryIsUS == false || (countryIsUS == nil && state == nil) { return accept(lat, lon) }

        let m = regionMarginDegrees
        func inside(_ la: Double, _ lo: Double) -> Bool {
            if let state { return state.contains(latitude: la, longitude: lo, margin: m) }
            return USRegions.containsAnywhere(latitude: la, longitude: lo, margin: m)
        }
        if inside(lat, lon) { return accept(lat, lon) }
        let place = state.map { "\($0.name) (\($0.code))" } ?? "the United States"
        if lon > 0 && inside(lat, -lon) {
            let message = "longitude \(lon) puts it in the eastern hemisphere; (\(lat), \(-lon)) is in \(place)"
            if fixCoordinates, let c = try? Coordinate(latitude: lat, longitude: -lon) {
                return .accepted(c, warning: (.signFlippedLongitude, message + "; corrected"))
            }
            return .rejected(.signFlippedLongitude, message)
        }
        if abs(lon) <= 90 && inside(lon, lat) {
            return swapped(lat, lon, "(\(lat), \(lon)) is not in \(place) but (\(lon), \(lat)) is; latitude and longitude look swapped")
        }
        if state != nil && USRegions.containsAnywhere(latitude: lat, longitude: lon, margin: 0) {
            let km = Int(state!.kilometres(fromLatitude: lat, longitude: lon).rounded())
            return accept(lat, lon, warning: (.outsideRegion, "(\(lat), \(lon)) is about \(km) km outside \(place)"))
        }
        return .rejected(.outsideCountry, "(\(lat), \(lon)) is not in the United States (the row says \(place))")
    }

    private func swapped(_ lat: Double, _ lon: Double, _ message: String) -> CoordinateVerdict {
        if fixCoordinates, let c = try? Coordinate(latitude: lon, longitude: lat) {
            return .accepted(c, warning: (.swappedCoordinates, message + "; corrected"))
        }
        return .rejected(.swappedCoordinates, message)
    }

    private func accept(_ lat: Double, _ lon: Double, warning: (ReasonCode, String)? = nil) -> CoordinateVerdict {
        guard let c = try? Coordinate(latitude: lat, longitude: lon) else {
            return .rejected(.outOfRange, "(\(lat), \(lon)) is not a valid coordinate")
        }
        return .accepted(c, warning: warning)
    }

    private func parse(_ text: String) -> Double? {
        if let v = DecimalNumber.parse(text) { return v }
        if allowDecimalComma, text.filter({ $0 == "," }).count == 1 { return DecimalNumber.parse(text, decimalComma: true) }
        return nil
    }
}
