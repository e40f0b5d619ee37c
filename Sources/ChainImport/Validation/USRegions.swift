import Foundation

/// Bounding boxes of the U.S. states, DC and the inhabited territories, for "is this coordinate
/// anywhere near the state the row names" checks. Boxes, not shapes: a point inside the box may
/// still be outside the state, but a point far outside the box is certainly wrong.
package struct USRegion: Sendable, Equatable {
    package let code: String
    package let name: String
    /// (minLat, maxLat, minLon, maxLon); Alaska needs two (the Aleutians cross the antimeridian).
    package let boxes: [(Double, Double, Double, Double)]

    package static func == (a: USRegion, b: USRegion) -> Bool { a.code == b.code }

    /// True when the point lies in one of the boxes grown by `margin` degrees on every side.
    package func contains(latitude: Double, longitude: Double, margin: Double) -> Bool {
        boxes.contains { b in
            latitude >= b.0 - margin && latitude <= b.1 + margin && longitude >= b.2 - margin && longitude <= b.3 + margin
        }
    }

    /// Approximate distance in km from the nearest box (0 inside), for messages.
    package func kilometres(fromLatitude lat: Double, longitude lon: Double) -> Double {
        boxes.map { b in
            let dLat = max(b.0 - lat, 0, lat - b.1) * 111.2
            let dLon = max(b.2 - lon, 0, lon - b.3) * 111.2 * cos(min(abs(lat), 89) * .pi / 180)
            return (dLat * dLat + dLon * dLon).squareRoot()
        }.min() ?? 0
    }
}

package enum USRegions {
    package static let all: [USRegion] = [
        r("AL", "Alabama", 30.14, 35.01, -88.47, -84.89), r("AK", "Alaska", 51.21, 71.44, -179.99, -129.98),
        r("AZ", "Arizona", 31.33, 37.00, -114.82, -109.04), r("AR", "Arkansas", 33.00, 36.50, -94.62, -89.64),
        r("CA", "California", 32.53, 42.01, -124.48, -114.13), r("CO", "Colorado", 36.99, 41.00, -109.06, -102.04),
        r("CT", "Connecticut", 40.95, 42.05, -73.73, -71.78), r("DE", "Delaware", 38.45, 39.84, -75.79, -75.05),
        r("DC", "District of Columbia", 38.79, 39.00, -77.12, -76.91), r("FL", "Florida", 24.40, 31.00, -87.63, -80.03),
        r("GA", "Georgia", 30.36, 35.00, -85.61, -80.84), r("HI", "Hawaii", 18.91, 22.24, -160.25, -154.81),
        r("ID", "Idaho", 41.99, 49.00, -117.24, -111.04), r("IL", "Illinois", 36.97, 42.51, -91.51, -87.02),
        r("IN", "Indiana", 37.77, 41.76, -88.10, -84.78), r("IA", "Iowa", 40.38, 43.50, -96.64, -90.14),
        r("KS", "Kansas", 36.99, 40.00, -102.05, -94.59), r("KY", "Kentucky", 36.50, 39.15, -89.57, -81.96),
        r("LA", "Louisiana", 28.93, 33.02, -94.04, -88.82), r("ME", "Maine", 42.98, 47.46, -71.08, -66.95),
        r("MD", "Maryland", 37.91, 39.72, -79.49, -75.05), r("MA", "Massachusetts", 41.24, 42.89, -73.51, -69.93),
        r("MI", "Michigan", 41.70, 48.31, -90.42, -82.41), r("MN", "Minnesota", 43.50, 49.38, -97.24, -89.49),
        r("MS", "Mississippi", 30.17, 35.00, -91.66, -88.10), r("MO", "Missouri", 35.99, 40.61, -95.77, -89.10),
        r("MT", "Montana", 44.36, 49.00, -116.05, -104.04), r("NE", "Nebraska", 40.00, 43.00, -104.05, -95.31),
        r("NV", "Nevada", 35.00, 42.00, -120.01, -114.04), r("NH", "New Hampshire", 42.70, 45.31, -72.56, -70.61),
        r("NJ", "New Jersey", 38.93, 41.36, -75.56, -73.89), r("NM", "New Mexico", 31.33, 37.00, -109.05, -103.00),
        r("NY", "New York", 40.50, 45.02, -79.76, -71.86), r("NC", "North Carolina", 33.84, 36.59, -84.32, -75.46),
        r("ND", "North Dakota", 45.94, 49.00, -104.05, -96.55), r("OH", "Ohio", 38.40, 41.98, -84.82, -80.52),
        r("OK", "Oklahoma", 33.62, 37.00, -103.00, -94.43), r("OR", "Oregon", 41.99, 46.29, -124.57, -116.46),
        r("PA", "Pennsylvania", 39.72, 42.27, -80.52, -74.69), r("RI", "Rhode Island", 41.15, 42.02, -71.86, -71.12),
        r("SC", "South Carolina", 32.03, 35.22, -83.35, -78.54), r("SD", "South Dakota", 42.48, 45.95, -104.06, -96.44),
        r("TN", "Tennessee", 34.98, 36.68, -90.31, -81.65), r("TX", "Texas", 25.84, 36.50, -106.65, -93.51),
        r("UT", "Utah", 37.00, 42.00, -114.05, -109.04), r("VT", "Vermont", 42.73, 45.02, -73.44, -71.46),
        r("VA", "Virginia", 36.54, 39.47, -83.68, -75.24), r("WA", "Washington", 45.54, 49.00, -124.85, -116.92),
        r("WV", "West Virginia", 37.20, 40.64, -82.64, -77.72), r("WI", "Wisconsin", 42.49, 47.31, -92.89, -86.25),
        r("WY", "Wyoming", 40.99, 45.01, -111.06, -104.05), r("PR", "Puerto Rico", 17.88, 18.52, -67.95, -65.22),
        r("GU", "Guam", 13.23, 13.65, 144.62, 144.96), r("VI", "U.S. Virgin Islands", 17.67, 18.42, -65.09, -64.56),
        r("MP", "Northern Mariana Islands", 14.11, 20.56, 144.89, 145.87), r("AS", "American Samoa", -14.55, -11.04, -171.09, -168.14),
    ].map { region in
        // The western Aleutians lie east of the antimeridian.
        region.code == "AK" ? USRegion(code: "AK", name: "Alaska", boxes: region.boxes + [(51.2, 53.1, 172.4, 180.0)]) : region
    }

    private static func r(_ code: String, _ name: String, _ minLat: Double, _ maxLat: Double, _ minLon: Double, _ maxLon: Double) -> USRegion {
        USRegion(code: code, name: name, boxes: [(minLat, maxLat, minLon, maxLon)])
    }

    private static let byKey: [String: USRegion] = {
        var map: [String: USRegion] = [:]
        for region in all {
            map[region.code.lowercased()] = region
            map[ColumnMapping.normalise(region.name)] = region
        }
        map["virginislands"] = map["vi"]
        map["usvirginislands"] = map["vi"]
        map["washingtondc"] = map["dc"]
        return map
    }()

    /// The region a state column value names: a USPS code (`TX`) or a name (`Texas`, `texas`).
    package static func region(_ value: String) -> USRegion? {
        if let index = codeIndex(value) { return byCode[index] }
        let key = ColumnMapping.normalise(value)
        return key.isEmpty ? nil : byKey[key]
    }

    /// The regions by their two-letter code, at `codeIndex`: nearly every row of a U.S. file names its state that way,
    /// and normalising it for `byKey` cost a string per row, checked more than once.
    private static let byCode: [USRegion?] = {
        var table = [USRegion?](repeating: nil, count: 26 * 26)
        for region in all { if let index = codeIndex(region.code) { table[index] = region } }
        return table
    }()

    /// `"TX"`, `"tx"`, `"Tx"` → the same slot of `byCode`; nil for anything but two ASCII letters.
    private static func codeIndex(_ value: String) -> Int? {
        let utf8 = value.utf8
        guard utf8.count == 2 else { return nil }
        func letter(_ b: UInt8) -> Int? {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(b - UInt8(ascii: "a"))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(b - UInt8(ascii: "A"))
            default: nil
            }
        }
        guard let first = letter(utf8[utf8.startIndex]), let second = letter(utf8[utf8.index(after: utf8.startIndex)]) else { return nil }
        return first * 26 + second
    }

    /// Country values that mean the United States.
    package static func isUnitedStates(_ country: String) -> Bool {
        ["us", "usa", "unitedstates", "unitedstatesofamerica", "america"].contains(ColumnMapping.normalise(country))
    }

    /// Inside (or within `margin` degrees of) any state or territory.
    package static func containsAnywhere(latitude: Double, longitude: Double, margin: Double) -> Bool {
        all.contains { $0.contains(latitude: latitude, longitude: longitude, margin: margin) }
    }
}
