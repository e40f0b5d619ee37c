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
        var plain: String?
        var extended: String?
        for part in header.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            switch pair[0].lowercased() {
            case "filename*":
                // RFC 8187: charset'language'percent-encoded.
                let pieces = pair[1].split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
                if pieces.count == 3, pieces[0].lowercased() == "utf-8" { extended = String(pieces[2]).removingPercentEncoding }
            case "filename":
                var value = pair[1]
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
                plain = value.replacingOccurrences(of: "\\\"", with: "\"")
            default: continue
            }
        }
        guard let name = (extended ?? plain).map({ ($0 as NSString).lastPathComponent }), !name.isEmpty, name != "/",
            !FieldLimits.exceeds(name, 200), !name.unicodeScalars.contains(where: AdminText.isControl)
        else { return nil }
        return name
    }

    /// A name for an upload that gave none.
    static func madeUp() -> String {
        "upload-" + String(format: "%08x", UInt32.random(in: 0...UInt32.max)) + ".csv"
    }
}
