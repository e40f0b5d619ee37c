import Foundation
import LocationStore

/// The name an uploaded file is logged under: `file_name`, else the `Content-Disposition` header's filename (as
/// `curl -F` and browsers send it), else a made-up `upload-<8 hex digits>.csv` that the log says is made up — never
/// the same `upload.csv` for every upload, which made the log's entries impossible to tell apart.
enum UploadFileName {
    /// The filename a `Content-Disposition` header gives (`filename*=UTF-8''…` preferred over `filename="…"`), its last
    /// path component only; nil when it has none, or one with control characters or over 200 characters.
    static func fromHeader(_ header: String?) -> String? {
        guard let header else { return nil }
        let parameters = HeaderParameters.parse(header)
        // RFC 8187: charset'language'percent-encoded.
        let extended = parameters["filename*"].flatMap { value -> String? in
            let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
            return pieces.count == 3 && pieces[0].lowercased() == "utf-8" ? String(pieces[2]).removingPercentEncoding : nil
        }
        let plain = parameters["filename"]
        guard let name = (extended ?? plain).map({ ($0 as NSString).lastPathComponent }), !name.isEmpty, name != "/",
            !FieldLimits.exceeds(name, 200), !name.unicodeScalars.contains(where: AdminText.isControl)
        else { return nil }
        return name
    }

    /// A name for an upload that gave none, with the extension of its format as the import will read it (GeoJSON
    /// when its first character, past a byte order mark and white space, opens an object or array or is a record
    /// separator; CSV otherwise).
    static func madeUp(head: [UInt8]) -> String {
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let first = bytes.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
        let format = first == 0x1E ? "geojsonseq" : first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? "geojson" : "csv"
        return "upload-" + String(format: "%08x", UInt32.random(in: 0...UInt32.max)) + "." + format
    }
}
