import Foundation
import Testing

@testable import ChainImport

/// A feature's geometry is read as RFC 7946 writes it: positions are JSON numbers within a double's range.
@Suite struct GeoJSONFeatureTests {
    static func decode(_ json: String) -> Result<GeoJSONFeature, GeoJSONFeature.Rejection> { GeoJSONFeature.decode(Array(json.utf8)) }

    static func feature(_ coordinates: String, properties: String = "{}") -> String {
        #"{"type": "Feature", "properties": \#(properties), "geometry": {"type": "Point", "coordinates": \#(coordinates)}}"#
    }

    @Test(
        "a position of strings, booleans or nulls, or a number beyond a double, is refused invalid_geojson",
        arguments: [#"["-73.98", "40.7"]"#, "[-73.98, true]", "[null, 40.7]", "[-73.98, 1e-400]", "[2e400, 40.7]", "[-73.98, -1E-999]"])
    func refused(coordinates: String) {
        guard case .failure(let rejection) = Self.decode(Self.feature(coordinates)) else {
            Issue.record("\(coordinates) was taken")
            return
        }
        #expect(rejection.issue.code == .invalidGeoJSON, "\(coordinates): \(rejection.issue)")
    }

    @Test(
        "numbers in any JSON spelling are taken, and a string that looks like an exponent is no number",
        arguments: [
            "[-73.98, 40.7]", "[-7.398e1, 4.07E+1]", "[0, 0.0]", "[-0.0e0, 1e-300]", "[180, -90]",
        ])
    func taken(coordinates: String) {
        guard case .success(let feature) = Self.decode(Self.feature(coordinates, properties: #"{"note": "1e-400 in text"}"#)) else {
            Issue.record("\(coordinates) was refused")
            return
        }
        guard case .point = feature.place else {
            Issue.record("not a point")
            return
        }
    }

    @Test("a number beyond a double is found outside strings only, wherever it stands")
    func numbersBeyondADouble() {
        let quoted = Self.decode(Self.feature("[1e5, -2.5e-3]", properties: #"{"a": "x\"1e-400", "b": [1e5, 0e-999]}"#))
        guard case .success = quoted else {
            Issue.record("a number in a string, or a zero written with a large exponent, was taken for one beyond a double")
            return
        }
        guard case .failure(let rejection) = Self.decode(Self.feature("[1, 2]", properties: #"{"b": [1, 0e-999, 3e-400]}"#)) else {
            Issue.record("3e-400 in a property was taken")
            return
        }
        #expect(rejection.issue.message.contains("3e-400"))
    }
}
