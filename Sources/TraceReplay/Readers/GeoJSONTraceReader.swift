import Foundation

/// Reads GeoJSON `LineString`/`MultiLineString` geometries, bare or in a `Feature`/`FeatureCollection`, with
/// per-coordinate times in the `coordTimes` or `times` property (ISO-8601 strings or epoch seconds/milliseconds;
/// one array per line of a MultiLineString). Coordinates are `[lon, lat(, ele)]`.
public enum GeoJSONTraceReader {
    public static func read(_ data: Data) throws -> RawTrace {
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            throw TraceReadError.malformed("GeoJSON is not valid JSON: \(error.localizedDescription)")
        }
        guard let object = root as? [String: Any] else { throw TraceReadError.malformed("GeoJSON root must be an object") }
        var trace = RawTrace()
        var sawLine = false
        func addLines(_ lines: [[Any]], times: [[Any]?]) {
            sawLine = true
            for (n, line) in lines.enumerated() {
                trace.parts += 1
                if line.isEmpty { trace.emptyParts += 1 }
                let lineTimes = n < times.count ? times[n] : nil
                for (i, position) in line.enumerated() {
                    guard let p = position as? [Any], p.count >= 2, let lon = (p[0] as? NSNumber)?.doubleValue,
                        let lat = (p[1] as? NSNumber)?.doubleValue, (-90...90).contains(lat), (-180...180).contains(lon)
                    else {
                        trace.skipped += 1
                        continue
                    }
                    let ele = p.count >= 3 ? (p[2] as? NSNumber)?.doubleValue : nil
                    var time: Double?
                    if let lineTimes, i < lineTimes.count {
                        if let s = lineTimes[i] as? String {
                            time = TraceTime.parseISO(s[...])
                        } else if let v = (lineTimes[i] as? NSNumber)?.doubleValue {
                            time = v > 1e11 ? v / 1000 : v
                        }
                    }
                    trace.fixes.append(RawFix(time: time, latitude: lat, longitude: lon, altitude: ele))
                }
            }
        }
        func visit(geometry: [String: Any], properties: [String: Any]) {
            let timesValue = properties["coordTimes"] ?? properties["times"]
            switch geometry["type"] as? String {
            case "LineString":
                addLines([geometry["coordinates"] as? [Any] ?? []], times: [timesValue as? [Any]])
            case "MultiLineString":
                let lines = (geometry["coordinates"] as? [Any] ?? []).map { $0 as? [Any] ?? [] }
                let times: [[Any]?]
                if let nested = timesValue as? [Any], nested.first is [Any] { times = nested.map { $0 as? [Any] } } else { times = [] }
                addLines(lines, times: times)
            case "GeometryCollection":
                for g in geometry["geometries"] as? [[String: Any]] ?? [] { visit(geometry: g, properties: properties) }
            default:
                break
            }
        }
        func visitFeature(_ f: [String: Any]) {
            if let g = f["geometry"] as? [String: Any] { visit(geometry: g, properties: f["properties"] as? [String: Any] ?? [:]) }
        }
        switch object["type"] as? String {
        case "FeatureCollection": for f in object["features"] as? [[String: Any]] ?? [] { visitFeature(f) }
        case "Feature": visitFeature(object)
        default: visit(geometry: object, properties: [:])
        }
        if !sawLine { trace.warnings.append("no LineString or MultiLineString geometry found") }
        if trace.skipped > 0 { trace.warnings.append("\(trace.skipped) positions were not [lon, lat] numbers and were skipped") }
        return trace
    }
}
