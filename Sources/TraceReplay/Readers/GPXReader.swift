import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads GPX 1.0 and 1.1: track points (`trk/trkseg/trkpt`), else route points (`rte/rtept`), else waypoints.
/// `time`, `ele` and `hdop` are read; extensions and everything else are ignored.
public enum GPXReader {
    /// Metres of horizontal accuracy per unit of HDOP (a common consumer-GPS rule of thumb).
    static let metresPerHDOP = 5.0

    public static func read(_ data: Data) throws -> RawTrace {
        try XMLText.check(data)
        let delegate = GPXParserDelegate()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        parser.shouldProcessNamespaces = false
        // A file cut off in the middle (a phone that died while it recorded, a copy that stopped) still holds the
        // points before the cut: they are replayed, and the cut is reported (`RawTrace.cutOff`).
        var cutOff: String?
        if !parser.parse() {
            let reason =
                "GPX is not well-formed XML near line \(parser.lineNumber): "
                + (parser.parserError.map { String(describing: $0) } ?? "unknown error")
            guard delegate.sawGPXRoot, delegate.pointCount > 0 else { throw TraceReadError.malformed(reason) }
            cutOff = reason
        }
        guard delegate.sawGPXRoot else { throw TraceReadError.malformed("not a GPX document (no <gpx> root element)") }
        // Some XMLParser builds accept a truncated document; an unclosed root means the file was cut off.
        if cutOff == nil && !delegate.rootClosed {
            let reason = "GPX is truncated: the <gpx> element is never closed"
            guard delegate.pointCount > 0 else { throw TraceReadError.malformed(reason) }
            cutOff = reason
        }
        var trace = RawTrace()
        let d = delegate
        if !d.trackPoints.isEmpty || d.trackSegments > 0 {
            trace.fixes = d.trackPoints
            trace.parts = d.trackSegments
            trace.emptyParts = d.emptyTrackSegments
            trace.ignoredWaypoints = d.waypoints.count + d.routePoints.count
        } else if !d.routePoints.isEmpty || d.routes > 0 {
            trace.fixes = d.routePoints
            trace.parts = d.routes
            trace.emptyParts = d.emptyRoutes
            trace.ignoredWaypoints = d.waypoints.count
        } else {
            trace.fixes = d.waypoints
            trace.parts = d.waypoints.isEmpty ? 0 : 1
        }
        trace.skipped = d.skipped
        trace.cutOff = cutOff
        if d.skipped > 0 { trace.warnings.append("\(d.skipped) points without a valid lat/lon attribute were skipped") }
        return trace
    }
}

private final class GPXParserDelegate: NSObject, XMLParserDelegate {
    var sawGPXRoot = false
    var rootClosed = false
    var trackPoints: [RawFix] = []
    var routePoints: [RawFix] = []
    var waypoints: [RawFix] = []
    var trackSegments = 0, emptyTrackSegments = 0, routes = 0, emptyRoutes = 0, skipped = 0
    var pointCount: Int { trackPoints.count + routePoints.count + waypoints.count }

    private enum PointKind { case track, route, waypoint }
    private var current: (kind: PointKind, fix: RawFix)?
    private var pointDepth = 0
    private var depth = 0
    private var text = ""
    private var capturing = false
    private var segmentStartCount = 0
    private var routeStartCount = 0

    private static func local(_ name: String) -> Substring {
        if let colon = name.lastIndex(of: ":") { return name[name.index(after: colon)...] }
        return name[...]
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        depth += 1
        let name = Self.local(elementName)
        if depth == 1 {
            sawGPXRoot = name == "gpx"
            return
        }
        switch name {
        case "trkseg":
            trackSegments += 1
            segmentStartCount = trackPoints.count
        case "rte":
            routes += 1
            routeStartCount = routePoints.count
        case "trkpt", "rtept", "wpt":
            let kind: PointKind = name == "trkpt" ? .track : name == "rtept" ? .route : .waypoint
            if let lat = attributeDict["lat"].flatMap(Double.init), let lon = attributeDict["lon"].flatMap(Double.init),
                (-90...90).contains(lat), (-180...180).contains(lon)
            {
                current = (kind, RawFix(time: nil, latitude: lat, longitude: lon))
                pointDepth = depth
            } else {
                skipped += 1
            }
        case "time", "ele", "hdop":
            // Only direct children of a point: <metadata><time> and extension fields are not fix data.
            if current != nil && depth == pointDepth + 1 {
                capturing = true
                text = ""
            }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if capturing { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        defer { depth -= 1 }
        let name = Self.local(elementName)
        if depth == 1 { rootClosed = true }
        if capturing, current != nil {
            capturing = false
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            switch name {
            case "time": current!.fix.time = TraceTime.parseISO(value[...])
            case "ele": current!.fix.altitude = Double(value)
            case "hdop": current!.fix.accuracy = Double(value).map { $0 * GPXReader.metresPerHDOP }
            default: break
            }
            return
        }
        switch name {
        case "trkpt", "rtept", "wpt":
            guard let (kind, fix) = current, depth == pointDepth else { return }
            switch kind {
            case .track: trackPoints.append(fix)
            case .route: routePoints.append(fix)
            case .waypoint: waypoints.append(fix)
            }
            current = nil
        case "trkseg":
            if trackPoints.count == segmentStartCount { emptyTrackSegments += 1 }
        case "rte":
            if routePoints.count == routeStartCount { emptyRoutes += 1 }
        default:
            break
        }
    }
}

/// Why a trace file could not be read at all.
public enum TraceReadError: Error, Sendable, CustomStringConvertible, Equatable {
    case malformed(String)
    case unknownFormat(String)
    case io(String)

    public var description: String {
        switch self {
        case .malformed(let m): m
        case .unknownFormat(let m): m
        case .io(let m): m
        }
    }
}
