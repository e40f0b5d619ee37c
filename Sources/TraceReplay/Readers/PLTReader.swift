import Foundation

/// Reads GeoLife PLT files: 6 header lines, then `lat,lon,0,altitude_ft,days_since_1899-12-30,date,time` (GMT).
/// CRLF and LF both work. Altitude -777 means "invalid" and becomes nil.
public enum PLTReader {
    static let headerLines = 6
    static let invalidAltitudeFeet = -777.0
    static let metresPerFoot = 0.3048
    /// 1899-12-30 as seconds since 1970 (the OLE automation epoch GeoLife uses).
    static let oleEpoch = Double(TraceTime.daysFromCivil(year: 1899, month: 12, day: 30) * 86_400)

    public static func read(_ text: String) -> RawTrace {
        var trace = RawTrace()
        var lineNumber = 0
        var invalidAltitudes = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            guard lineNumber > headerLines else { continue }
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.isEmpty { continue }
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count >= 5, let lat = Double(f[0]), let lon = Double(f[1]), (-90...90).contains(lat), (-180...180).contains(lon) else {
                trace.skipped += 1
                continue
            }
            var time: Double?
            if f.count >= 7 { time = TraceTime.parseISO((f[5] + " " + f[6])[...]) }
            // A days field past Double's range ("1e400") would give an infinite time: such a fix has no time.
            if time == nil, let days = Double(f[4]), days.isFinite, abs(days) < 1e8 { time = oleEpoch + (days * 86_400).rounded() }
            var altitude: Double?
            if let feet = Double(f[3]) {
                if feet == invalidAltitudeFeet { invalidAltitudes += 1 } else { altitude = feet * metresPerFoot }
            }
            trace.fixes.append(RawFix(time: time, latitude: lat, longitude: lon, altitude: altitude))
        }
        trace.parts = trace.fixes.isEmpty ? 0 : 1
        if invalidAltitudes > 0 { trace.warnings.append("\(invalidAltitudes) fixes have altitude -777 (GeoLife's invalid marker); altitude dropped") }
        if trace.skipped > 0 { trace.warnings.append("\(trace.skipped) lines could not be read as fixes") }
        return trace
    }

    /// Reads GeoLife `labels.txt`: `Start Time<TAB>End Time<TAB>Transportation Mode`, times `YYYY/MM/DD HH:MM:SS` GMT.
    public static func readLabels(_ text: String) -> [ModeLabel] {
        var labels: [ModeLabel] = []
        for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            let f = line.split(separator: "\t")
            guard f.count >= 3, let start = TraceTime.parseISO(f[0]), let end = TraceTime.parseISO(f[1]) else { continue }
            labels.append(ModeLabel(start: start, end: end, mode: f[2].trimmingCharacters(in: .whitespaces)))
        }
        return labels
    }
}
