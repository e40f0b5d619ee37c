/// Why a GeoJSON stream could not be read at all (as opposed to a feature that is rejected).
package enum GeoJSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A top-level value that is neither an object nor an array.
    case notGeoJSON(line: Int, found: UInt8)
    /// The stream ends inside a value: the file was cut short, and whatever followed is missing.
    case truncated(line: Int, features: Int, insideCollection: Bool)
    /// No JSON value at all.
    case empty
    /// GeoJSON is UTF-8 (RFC 7946, section 11); another encoding was forced.
    case notUTF8(String)

    package var description: String {
        switch self {
        case .notGeoJSON(let line, let found):
            "line \(line): '\(found >= 0x20 && found < 0x7F ? String(UnicodeScalar(found)) : "byte \(found)")' where a GeoJSON "
                + "object was expected: not a GeoJSON file"
        case .truncated(let line, let features, let insideCollection):
            "line \(line): the file ends inside a \(insideCollection ? "FeatureCollection" : "feature") after \(features) "
                + "feature\(features == 1 ? "" : "s"): it was cut short (an interrupted download or copy?); nothing was imported"
        case .empty: "the file holds no GeoJSON value"
        case .notUTF8(let forced): "GeoJSON is UTF-8 (RFC 7946); --encoding \(forced) does not apply to it"
        }
    }
}
