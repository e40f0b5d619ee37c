import Foundation
import Gazetteer
import Geo

/// The verdict on one row's coordinates.
package enum CoordinateVerdict: Sendable, Equatable {
    case accepted(Coordinate, warning: (ReasonCode, String)?)
    case rejected(ReasonCode, String)

    package static func == (a: CoordinateVerdict, b: CoordinateVerdict) -> Bool {
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
    package var fixCoordinates = false
    /// A decimal comma (`40,7`) is accepted when the file's delimiter is not a comma.
    package var allowDecimalComma = false

    package init(fixCoordinates: Bool = false, allowDecimalComma: Bool = false) {
        self.fixCoordinates = fixCoordinates
        self.allowDecimalComma = allowDecimalComma
    }

    package func check(latitude latText: String, longitude lonText: String, region: String?, country: String?) -> CoordinateVerdict {
        judge(latitude: latText, longitude: lonText, region: region, country: country).verdict
    }

    /// The verdict, and whether the point was held against the row's US state or country (`referenced`); a point
    /// accepted without one is left to `PlacementCheck`, which holds it against the file's other rows and the world.
    package func judge(
        latitude latText: String, longitude lonText: String, region: String?, country: String?
    ) -> (verdict: CoordinateVerdict, referenced: Bool) {
        let latT = String(latText.trimmedOfWhitespace)
        let lonT = String(lonText.trimmedOfWhitespace)
        if latT.isEmpty || lonT.isEmpty {
            let missing = latT.isEmpty && lonT.isEmpty ? "no latitude and longitude" : latT.isEmpty ? "no latitude" : "no longitude"
            return (.rejected(.missingCoordinates, missing), false)
        }
        guard let lat = parse(latT), let lon = parse(lonT) else {
            return (
                .rejected(
                    .unparseableCoordinates,
                    "cannot read '\(latT.clipped(40))', '\(lonT.clipped(40))' as decimal degrees "
                        + "(plain decimal numbers such as 40.7128 and -74.0060)"), false
            )
        }
        if lat == 0 && lon == 0 { return (.rejected(.zeroCoordinates, "(0, 0) is the null island placeholder, not a place"), false) }
        if abs(lat) > 90 || abs(lon) > 180 { return (outOfRange(lat, lon), false) }
        let state = region.flatMap { $0.isEmpty ? nil : USRegions.region($0) }
        let countryIsUS: Bool? = country.flatMap { $0.trimmedOfWhitespace.isEmpty ? nil : USRegions.isUnitedStates($0) }
        // A non-US country, or nothing to compare with: the file's other rows and the world decide (`PlacementCheck`).
        if countryIsUS == false || (countryIsUS == nil && state == nil) { return (accept(lat, lon), false) }
        return (referenced(lat, lon, state: state), true)
    }

    /// A value past its range is out of range, unless the pair read the other way round is a place people live: a
    /// longitude of -122.4 in the latitude column beside 37.77 is San Francisco swapped, a latitude of 91.5 a typo.
    private func outOfRange(_ lat: Double, _ lon: Double) -> CoordinateVerdict {
        if abs(lon) <= 90 && abs(lat) <= 180 && Habitation.isInhabited(latitude: lon, longitude: lat) {
            return swapped(lat, lon, "latitude \(lat) is out of range and (\(lon), \(lat)) is a place; latitude and longitude look swapped")
        }
        let which = abs(lat) > 90 ? "latitude \(lat) is out of range (-90…90)" : "longitude \(lon) is out of range (-180…180)"
        return .rejected(.outOfRange, "\(which); the row gives (\(lat), \(lon))")
    }

    /// The point held against the row's US state, or the United States as a whole.
    private func referenced(_ lat: Double, _ lon: Double, state: USRegion?) -> CoordinateVerdict {
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
