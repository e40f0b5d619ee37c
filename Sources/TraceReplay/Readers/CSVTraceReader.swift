import Foundation

/// How the columns of a CSV trace map to fix fields. Columns are header names (case-insensitive) or 0-based indices.
public struct CSVMapping: Sendable, Hashable, Codable {
    public var latitude: String?
    public var longitude: String?
    public var time: String?
    public var accuracy: String?
    /// The column that tells several traces in one file apart (a trajectory or track id); nil looks for one by name.
    public var track: String?
    /// `,`, `;` or a tab; nil detects it from the first line.
    public var separator: String?
    /// `auto` (ISO-8601 text, or epoch seconds/milliseconds by magnitude), `iso`, `seconds`, `milliseconds`.
    public var timeFormat: String
    /// False when the first line is data; columns are then indices (defaults: lat 0, lon 1, time 2).
    public var hasHeader: Bool

    public init(
        latitude: String? = nil, longitude: String? = nil, time: String? = nil, accuracy: String? = nil, track: String? = nil,
        separator: String? = nil, timeFormat: String = "auto", hasHeader: Bool = true
    ) {
        self.track = track
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
    static let trackNames = ["trajectory_id", "track_id", "traj_id", "trip_id", "segment_id", "trajectory", "track"]
}

/// Reads delimited text traces: column mapping by header name or index, `,`/`;`/tab, lon-before-lat,
/// epoch seconds or milliseconds, ISO-8601 with or without zone (no zone is read as UTC and warned).
public enum CSVTraceReader {
    /// The file as one trace (every row, whatever its track).
    public static func read(_ text: String, mapping: CSVMapping = .init()) throws -> RawTrace {
        var all = mapping
        all.track = nil
        return try readTracks(text, mapping: all, splitting: false)[0].trace
    }

    /// The file's traces: one per value of its track column (a trajectory or track id) in the order they first
    /// appear, or the whole file as one when it has no such column (`track` then empty).
    public static func readTracks(_ text: String, mapping: CSVMapping = .init(), splitting: Bool = true) throws -> [(track: String, trace: RawTrace)]
    {
        var lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = first.dropFirst() }
        guard let first = lines.first else { return [("", RawTrace())] }
        let sep: Character = mapping.separator.flatMap { $0 == "\\t" || $0 == "tab" ? "\t" : $0.first } ?? detectSeparator(first)
        let columns = try Columns(mapping.hasHeader ? first : nil, separator: sep, mapping: mapping, splitting: splitting)
        let (latIndex, lonIndex, timeIndex, accuracyIndex, trackIndex) =
            (columns.latitude, columns.longitude, columns.time, columns.accuracy, columns.track)
        let body = mapping.hasHeader ? lines.dropFirst() : lines[...]
        var tracks: [String: Int] = [:]
        var traces: [(track: String, trace: RawTrace, zoneless: Int, badTimes: Int)] = []
        for line in body where !line.isEmpty {
            let f = line.split(separator: sep, omittingEmptySubsequences: false)
            let key = trackIndex.flatMap { $0 < f.count ? f[$0].trimmingCharacters(in: .whitespaces) : nil } ?? ""
            let k: Int
            if let known = tracks[key] {
                k = known
            } else {
                k = traces.count
                tracks[key] = k
                traces.append((key, RawTrace(), 0, 0))
            }
            guard latIndex < f.count, lonIndex < f.count, let lat = number(f[latIndex]), let lon = number(f[lonIndex]),
                (-90...90).contains(lat), (-180...180).contains(lon)
            else {
                traces[k].trace.skipped += 1
                continue
            }
            var time: Double?
            if let ti = timeIndex, ti < f.count {
                let cell = f[ti]
                var assumed = false
                time = parseTime(cell, format: mapping.timeFormat, assumedUTC: &assumed)
                if assumed { traces[k].zoneless += 1 }
                if time == nil && !cell.trimmingCharacters(in: .whitespaces).isEmpty { traces[k].badTimes += 1 }
            }
            let accuracy = accuracyIndex.flatMap { $0 < f.count ? number(f[$0]) : nil }.flatMap { $0 > 0 ? $0 : nil }
            traces[k].trace.fixes.append(RawFix(time: time, latitude: lat, longitude: lon, accuracy: accuracy))
        }
        if traces.isEmpty { return [("", RawTrace())] }
        return traces.map { t in
            var trace = t.trace
            trace.parts = trace.fixes.isEmpty ? 0 : 1
            if t.zoneless > 0 { trace.warnings.append("\(t.zoneless) times have no zone and were read as UTC") }
            if t.badTimes > 0 { trace.warnings.append("\(t.badTimes) times could not be parsed and were treated as missing") }
            if trace.skipped > 0 { trace.warnings.append("\(trace.skipped) rows without a valid latitude/longitude were skipped") }
            return (t.track, trace)
        }
    }

    /// Where each field is: found by header name (or the mapping's name or index), or by index when the file has no
    /// header (defaults: lat 0, lon 1, time 2).
    struct Columns {
        var latitude = 0
        var longitude = 1
        var time: Int? = 2
        var accuracy: Int?
        var track: Int?

        init(_ headerLine: Substring?, separator sep: Character, mapping: CSVMapping, splitting: Bool) throws {
            guard let headerLine else {
                latitude = mapping.latitude.flatMap { Int($0) } ?? 0
                longitude = mapping.longitude.flatMap { Int($0) } ?? 1
                time = mapping.time.flatMap { Int($0) } ?? 2
                accuracy = mapping.accuracy.flatMap { Int($0) }
                if splitting { track = mapping.track.flatMap { Int($0) } }
                return
            }
            let header = headerLine.split(separator: sep, omittingEmptySubsequences: false).map {
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
            latitude = try find(mapping.latitude, CSVMapping.latitudeNames, required: true, what: "latitude")!
            longitude = try find(mapping.longitude, CSVMapping.longitudeNames, required: true, what: "longitude")!
            time = try find(mapping.time, CSVMapping.timeNames, required: false, what: "time")
            accuracy = try find(mapping.accuracy, CSVMapping.accuracyNames, required: false, what: "accuracy")
            if splitting { track = try find(mapping.track, CSVMapping.trackNames, required: false, what: "track") }
        }
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
