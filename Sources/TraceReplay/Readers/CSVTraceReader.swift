import Foundation

/// How the columns of a CSV trace map to fix fields. Columns are header names (case-insensitive) or 0-based indices.
public struct CSVMapping: Sendable, Hashable, Codable {
    public var latitude: String?
    public var longitude: String?
    public var time: String?
    public var accuracy: String?
    /// `,`, `;` or a tab; nil detects it from the first line.
    public var separator: String?
    /// `auto` (ISO-8601 text, or epoch seconds/milliseconds by magnitude), `iso`, `seconds`, `milliseconds`.
    public var timeFormat: String
    /// False when the first line is data; columns are then indices (defaults: lat 0, lon 1, time 2).
    public var hasHeader: Bool

    public init(
        latitude: String? = nil, longitude: String? = nil, time: String? = nil, accuracy: String? = nil,
        separator: String? = nil, timeFormat: String = "auto", hasHeader: Bool = true
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
        self.accuracy = accuracy
        self.separator = separator
        self.timeFormat = timeFormat
        self.hasHeader = hasHeader
    }

    static let latitudeNames = ["lat", "latitude", "y", "lat_deg"]
    static let longitudeNames = ["lon", "lng", "long", "longitude", "x", "lon_deg"]
    static let timeNames = ["time", "t", "timestamp", "datetime", "date_time", "tracked_at", "recorded_at", "ts", "utc", "date"]
    static let accuracyNames = ["accuracy", "acc", "horizontal_accuracy", "hacc"]
}

/// Reads delimited text traces: column mapping by header name or index, `,`/`;`/tab, lon-before-lat,
/// epoch seconds or milliseconds, ISO-8601 with or without zone (no zone is read as UTC and warned).
public enum CSVTraceReader {
    public static func read(_ text: String, mapping: CSVMapping = .init()) throws -> RawTrace {
        var lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = first.dropFirst() }
        guard let first = lines.first else { return RawTrace() }
        let sep: Character = mapping.separator.flatMap { $0 == "\\t" || $0 == "tab" ? "\t" : $0.first } ?? detectSeparator(first)
        var latIndex = 0
        var lonIndex = 1
        var timeIndex: Int? = 2
        var accuracyIndex: Int?
        var body = lines[...]
        if mapping.hasHeader {
            let header = first.split(separator: sep, omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
            }
            func find(_ given: String?, _ names: [String], required: Bool, what: String) throws -> Int? {
                if let given {
                    if let i = Int(given), i >= 0, i < header.count { return i }
                    if let i = header.firstIndex(of: given.lowercased()) { return i }
                    throw TraceReadError.malformed("CSV has no column '\(given)' for \(what) (columns: \(header.joined(separator: ", ")))")
                }
                for name in names { if let i = header.firstIndex(of: name) { return i } }
                if required {
                    throw TraceReadError.malformed(
                        "CSV has no \(what) column (looked for \(names.joined(separator: "/")); columns: \(header.joined(separator: ", ")))")
                }
                return nil
            }
            latIndex = try find(mapping.latitude, CSVMapping.latitudeNames, required: true, what: "latitude")!
            lonIndex = try find(mapping.longitude, CSVMapping.longitudeNames, required: true, what: "longitude")!
            timeIndex = try find(mapping.time, CSVMapping.timeNames, required: false, what: "time")
            accuracyIndex = try find(mapping.accuracy, CSVMapping.accuracyNames, required: false, what: "accuracy")
            body = lines.dropFirst()
        } else {
            latIndex = mapping.latitude.flatMap { Int($0) } ?? 0
            lonIndex = mapping.longitude.flatMap { Int($0) } ?? 1
            timeIndex = mapping.time.flatMap { Int($0) } ?? 2
            accuracyIndex = mapping.accuracy.flatMap { Int($0) }
        }
        var trace = RawTrace()
        var zoneless = 0
        var badTimes = 0
        trace.fixes.reserveCapacity(body.count)
        for line in body where !line.isEmpty {
            let f = line.split(separator: sep, omittingEmptySubsequences: false)
            guard latIndex < f.count, lonIndex < f.count, let lat = number(f[latIndex]), let lon = number(f[lonIndex]),
                (-90...90).contains(lat), (-180...180).contains(lon)
            else {
                trace.skipped += 1
                continue
            }
            var time: Double?
            if let ti = timeIndex, ti < f.count {
                let cell = f[ti]
                var assumed = false
                time = parseTime(cell, format: mapping.timeFormat, assumedUTC: &assumed)
                if assumed { zoneless += 1 }
                if time == nil && !cell.trimmingCharacters(in: .whitespaces).isEmpty { badTimes += 1 }
            }
            let accuracy = accuracyIndex.flatMap { $0 < f.count ? number(f[$0]) : nil }.flatMap { $0 > 0 ? $0 : nil }
            trace.fixes.append(RawFix(time: time, latitude: lat, longitude: lon, accuracy: accuracy))
        }
        trace.parts = trace.fixes.isEmpty ? 0 : 1
        if zoneless > 0 { trace.warnings.append("\(zoneless) times have no zone and were read as UTC") }
        if badTimes > 0 { trace.warnings.append("\(badTimes) times could not be parsed and were treated as missing") }
        if trace.skipped > 0 { trace.warnings.append("\(trace.skipped) rows without a valid latitude/longitude were skipped") }
        return trace
    }

    static func detectSeparator(_ line: Substring) -> Character {
        let counts: [(Character, Int)] = [(",", 0), (";", 0), ("\t", 0)].map { c, _ in (c, line.filter { $0 == c }.count) }
        // Ties go to the first: ',' is the default.
        return counts.max { $0.1 < $1.1 }.flatMap { $0.1 > 0 ? $0.0 : nil } ?? ","
    }

    static func number(_ s: Substring) -> Double? {
        Double(s.trimmingCharacters(in: CharacterSet(charactersIn: " \""))).flatMap { $0.isFinite ? $0 : nil }
    }

    /// Epoch numbers above 1e11 are milliseconds (1e11 s is the year 5138).
    static func parseTime(_ cell: Substring, format: String, assumedUTC: inout Bool) -> Double? {
        switch format {
        case "seconds": return number(cell)
        case "milliseconds", "ms": return number(cell).map { $0 / 1000 }
        case "iso": return TraceTime.parseISO(cell, assumedUTC: &assumedUTC)
        default:
            if let v = number(cell) { return v > 1e11 ? v / 1000 : v }
            return TraceTime.parseISO(cell, assumedUTC: &assumedUTC)
        }
    }
}
